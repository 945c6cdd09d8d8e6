// Conditions on one blueprint value inside an entry's `data` JSON. The databases differ: Prisma's JSON
// path is '$.field' on SQLite and ['field'] on PostgreSQL, and only PostgreSQL has JSON lt/gt filters,
// so on SQLite a comparison first selects the matching IDs with json_extract. String equality selects
// IDs too, on both: through the pg driver adapter Prisma's JSON `equals` never matches a string.
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { Context } from "../context.ts";

type Where = Prisma.EntryWhereInput;
export type Comparison = "lt" | "lte" | "gt" | "gte";

/** A Prisma JSON filter on `data.<handle>` (handles are [A-Za-z_][A-Za-z0-9_]*: safe in a path). */
export function valueFilter(ctx: Pick<Context, "provider">, handle: string, filter: object): Where {
  const path = ctx.provider === "postgresql" ? [handle] : `$.${handle}`;
  return { data: { path, ...filter } as unknown as Prisma.JsonFilter<"Entry"> };
}

/** `data.<handle>` is one of these strings. */
export async function textEquals(
  ctx: Pick<Context, "provider" | "db">,
  collectionId: string,
  handle: string,
  values: string[],
): Promise<Where> {
  const rows =
    ctx.provider === "postgresql"
      ? await ctx.db.$queryRaw<
          { id: string }[]
        >`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND jsonb_typeof("data" -> ${handle}) = 'string' AND ("data" ->> ${handle}) = ANY(${values})`
      : await ctx.db.$queryRaw<
          { id: string }[]
        >`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${`$.${handle}`}) = 'text' AND json_extract("data", ${`$.${handle}`}) IN (SELECT "value" FROM json_each(${JSON.stringify(values)}))`;
  return { id: { in: rows.map((row) => row.id) } };
}

/** `data.<handle> <comparison> number`, for number fields. */
export async function numberComparison(
  ctx: Pick<Context, "provider" | "db">,
  collectionId: string,
  handle: string,
  comparison: Comparison,
  value: number,
): Promise<Where> {
  if (ctx.provider === "postgresql") return valueFilter(ctx, handle, { [comparison]: value });
  const path = `$.${handle}`;
  const ids = await sqliteCompare(ctx.db, collectionId, path, comparison, value);
  return { id: { in: ids.map((row) => row.id) } };
}

function sqliteCompare(
  db: Context["db"],
  collectionId: string,
  path: string,
  comparison: Comparison,
  value: number,
): Promise<{ id: string }[]> {
  // One statement per operator: operators cannot be query parameters.
  const numeric = (sql: TemplateStringsArray, ...params: unknown[]) =>
    db.$queryRaw<{ id: string }[]>(sql, ...params);
  switch (comparison) {
    case "lt":
      return numeric`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) < ${value}`;
    case "lte":
      return numeric`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) <= ${value}`;
    case "gt":
      return numeric`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) > ${value}`;
    case "gte":
      return numeric`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) >= ${value}`;
  }
}
