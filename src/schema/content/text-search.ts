// `contains`, `starts_with` and `ends_with`, ignoring case, on an entry column or a blueprint value. Prisma turns
// them into LIKE without escaping its wildcards, so `%` and `_` would match anything. PostgreSQL's LIKE
// escapes with `\`; SQLite's LIKE has no escape character without an ESCAPE clause Prisma cannot write,
// so there a needle holding a wildcard selects the matching IDs with instr() instead (at most
// MAX_COMPARED_MATCHES of them). Case is ignored for ASCII letters on SQLite, for all on PostgreSQL.
// Such a scan reads every entry of the collection in one synchronous statement (better-sqlite3), so
// within one request an identical search runs once, the event loop gets a turn before each scan, and
// a request may make at most MAX_SCANS_PER_REQUEST different ones (400 past that): twenty filters in
// each of fifteen aliases cannot hold the process for seconds.
import { Prisma } from "../../generated/sqlite/client.ts";
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";
import { MAX_COMPARED_MATCHES, valueFilter } from "./json-values.ts";

type Where = Prisma.EntryWhereInput;

/** Different wildcard scans one request may make on the embedded database: one query's filters. */
export const MAX_SCANS_PER_REQUEST = 20;

/** A request's scans by what they search for; the context object lives as long as its request. */
const requestScans = new WeakMap<object, Map<string, Promise<Where>>>();

export type TextOperator = "contains" | "starts_with" | "ends_with";

export type TextTarget = { column: "handle" | "title" | "contentPath" } | { handle: string };

export async function textSearch(
  ctx: Pick<Context, "provider" | "db">,
  collectionId: string,
  target: TextTarget,
  op: TextOperator,
  needle: string,
  at: string,
): Promise<Where> {
  const wild = /[%_\\]/.test(needle);
  if (ctx.provider === "postgresql") {
    const escaped = wild ? needle.replace(/[%_\\]/g, "\\$&") : needle;
    return prismaFilter(ctx, target, op, escaped, { mode: "insensitive" });
  }
  if (!wild) return prismaFilter(ctx, target, op, needle, {});
  const scans = requestScans.get(ctx) ?? new Map<string, Promise<Where>>();
  requestScans.set(ctx, scans);
  const key = JSON.stringify([collectionId, target, op, needle]);
  const known = scans.get(key);
  if (known) return known;
  if (scans.size >= MAX_SCANS_PER_REQUEST)
    throw new ApiError(
      400,
      `A request may search for at most ${MAX_SCANS_PER_REQUEST} different texts holding %, _ or \\ on the embedded database`,
    );
  const scan = scanIds(ctx, collectionId, target, op, needle, at);
  scans.set(key, scan);
  return scan;
}

async function scanIds(
  ctx: Pick<Context, "db">,
  collectionId: string,
  target: TextTarget,
  op: TextOperator,
  needle: string,
  at: string,
): Promise<Where> {
  // The statement blocks the process while it reads: other requests get their turn first.
  await new Promise((resolve) => setImmediate(resolve));
  const text =
    "column" in target
      ? Prisma.raw(`"${target.column}"`)
      : Prisma.sql`json_extract("data", ${`$.${target.handle}`})`;
  const position = Prisma.sql`instr(lower(${text}), lower(${needle}))`;
  // The text's end, as long as the needle (SQLite counts a negative start from the end).
  const ending = Prisma.sql`substr(lower(${text}), -length(${needle})) = lower(${needle})`;
  const rows = await ctx.db.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT "id" FROM "Entry" WHERE "collectionId" = ${collectionId} AND ${
      op === "contains"
        ? Prisma.sql`${position} > 0`
        : op === "starts_with"
          ? Prisma.sql`${position} = 1`
          : ending
    } LIMIT ${MAX_COMPARED_MATCHES + 1}`,
  );
  if (rows.length > MAX_COMPARED_MATCHES)
    throw ApiError.invalid(
      at,
      `matches more than ${MAX_COMPARED_MATCHES} entries on the embedded database: make it longer`,
    );
  return { id: { in: rows.map((row) => row.id) } };
}

function prismaFilter(
  ctx: Pick<Context, "provider">,
  target: TextTarget,
  op: TextOperator,
  needle: string,
  options: object,
): Where {
  if ("column" in target) {
    const key = { contains: "contains", starts_with: "startsWith", ends_with: "endsWith" }[op];
    return { [target.column]: { [key]: needle, ...options } };
  }
  const key = `string_${op}`;
  return valueFilter(ctx, target.handle, { [key]: needle, ...options });
}
