// Conditions on one blueprint value inside an entry's `data` JSON. The databases differ: Prisma's JSON
// path is '$.field' on SQLite and ['field'] on PostgreSQL, and only PostgreSQL has JSON lt/gt filters,
// so on SQLite a comparison first selects the matching IDs with json_extract (at most
// MAX_COMPARED_MATCHES of them, which keeps the ID list within SQLite's parameter limit).
import type { Prisma } from "../../generated/sqlite/client.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";

type Where = Prisma.EntryWhereInput;
export type Comparison = "lt" | "lte" | "gt" | "gte";

export const MAX_COMPARED_MATCHES = 10_000;

/** A Prisma JSON filter on `data.<handle>` (handles are [A-Za-z_][A-Za-z0-9_]*: safe in a path). */
export function valueFilter(ctx: Pick<Context, "provider">, handle: string, filter: object): Where {
  const path = ctx.provider === "postgresql" ? [handle] : `$.${handle}`;
  return { data: { path, ...filter } as unknown as Prisma.JsonFilter<"Entry"> };
}

/** `data.<handle> <comparison> number`, for number fields; `at` names the input in a 422. */
export async function numberComparison(
  ctx: Pick<Context, "provider" | "db">,
  collectionId: string,
  handle: string,
  comparison: Comparison,
  value: number,
  at: string,
): Promise<Where> {
  if (ctx.provider === "postgresql") return valueFilter(ctx, handle, { [comparison]: value });
  const ids = await sqliteCompare(ctx.db, collectionId, `$.${handle}`, comparison, value);
  if (ids.length > MAX_COMPARED_MATCHES)
    throw ApiError.invalid(
      at,
      `matches more than ${MAX_COMPARED_MATCHES} entries on the embedded database: narrow the range`,
    );
  return { id: { in: ids.map((row) => row.id) } };
}

function sqliteCompare(
  db: Context["db"],
  collectionId: string,
  path: string,
  comparison: Comparison,
  value: number,
): Promise<{ id: string }[]> {
  const limit = MAX_COMPARED_MATCHES + 1;
  // One statement per operator: operators cannot be query parameters.
  const ids = (sql: TemplateStringsArray, ...params: unknown[]) =>
    db.$queryRaw<{ id: string }[]>(sql, ...params);
  switch (comparison) {
    case "lt":
      return ids`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) < ${value} LIMIT ${limit}`;
    case "lte":
      return ids`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) <= ${value} LIMIT ${limit}`;
    case "gt":
      return ids`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) > ${value} LIMIT ${limit}`;
    case "gte":
      return ids`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND json_type("data", ${path}) IN ('integer', 'real') AND json_extract("data", ${path}) >= ${value} LIMIT ${limit}`;
  }
}
