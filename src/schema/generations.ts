// Who a request is (its token's account, its Host's account) and, read in the same statement, the
// generations of those accounts: counters the database's triggers bump in the transaction of every write
// (migration account_generations). Every kept answer and lookup is keyed by the generation it was read at,
// so a write through any process is seen by the next request of every process, with nothing to tell them.
// Scheduled entries: public reads are made as of the time the generations were read (site/scope.ts), and
// an account's `nextPublishAt` is at or before its next entry coming due; once that moment has passed, the
// first request that sees it advances the content counter (compare-and-set: once, whichever process is
// first) and sets the moment after.
import { LRUCache } from "lru-cache";
import type { Db } from "../db/client.ts";
import { Prisma } from "../generated/sqlite/client.ts";
import { hashToken, type Viewer } from "./accounts/tokens.ts";
import type { SiteAccount } from "./site/host.ts";

export interface Identity {
  viewer: Viewer | null;
  site: SiteAccount | null;
  /** Each named account's generations, by account ID. */
  generations: ReadonlyMap<string, AccountGeneration>;
  /** The moment public reads are made as of: before every named account's next publish moment. */
  asOf: Date;
}

export interface AccountGeneration {
  content: bigint;
  structure: bigint;
}

interface Row {
  kind: string;
  accountId: string;
  tokenId: string | null;
  scope: string | null;
  revoked: unknown;
  name: string | null;
  domain: string | null;
  content: bigint | number;
  structure: bigint | number;
  nextPublishAt: Date | string | null;
}

/** How often a request reads again after advancing a due account that another write moved meanwhile. */
const ADVANCE_TRIES = 3;

export async function readIdentity(db: Db, token: string | undefined, domain: string): Promise<Identity> {
  const { rows, asOf } = await currentRows(db, token, domain);
  return identityOf(rows, asOf);
}

/** The rows of the request's accounts, after advancing any that came due. */
async function currentRows(db: Db, token: string | undefined, domain: string) {
  for (let attempt = 1; ; attempt++) {
    const asOf = new Date();
    const rows = token || domain ? await identityRows(db, token, domain) : [];
    const due = dueRow(rows, asOf);
    if (!due || attempt > ADVANCE_TRIES) return { rows, asOf };
    await advance(db, due.accountId, BigInt(due.content), asOf);
  }
}

const dueRow = (rows: Row[], asOf: Date) =>
  rows.find((row) => row.nextPublishAt !== null && new Date(row.nextPublishAt) <= asOf);

/**
 * On SQLite, where the database says whether anything was committed since (`version`: its data_version
 * with this process's own writes, src/db/sqlite-adapter.ts), the rows read for a token and Host are kept
 * while it stands: what a read would return is then provably what was read. The version is read before
 * the rows, so rows kept under it are at least as new.
 */
export function keptIdentities(db: Db, version: () => Promise<string | undefined>) {
  const kept = new LRUCache<string, { version: string; rows: Row[] }>({ max: 1_000 });
  return async (token: string | undefined, domain: string): Promise<Identity> => {
    const key = `${token ?? ""}\u0000${domain}`;
    const now = await version();
    const found = now === undefined ? undefined : kept.get(key);
    const asOf = new Date();
    if (found && found.version === now && !dueRow(found.rows, asOf)) return identityOf(found.rows, asOf);
    const read = await currentRows(db, token, domain);
    if (now !== undefined) kept.set(key, { version: now, rows: read.rows });
    return identityOf(read.rows, read.asOf);
  };
}

export type IdentityReader = ReturnType<typeof keptIdentities>;

function identityRows(db: Db, token: string | undefined, domain: string): Promise<Row[]> {
  const generation = Prisma.sql`g."content", g."structure", g."nextPublishAt"`;
  const parts: Prisma.Sql[] = [];
  // Tokens longer than any issued are nobody's: not worth hashing.
  if (token && token.length <= 200) {
    parts.push(Prisma.sql`SELECT 'token' AS "kind", t."accountId", t."id" AS "tokenId", t."scope",
      CASE WHEN t."revokedAt" IS NULL THEN 0 ELSE 1 END AS "revoked", NULL AS "name", NULL AS "domain",
      ${generation} FROM "ApiToken" t JOIN "AccountGeneration" g ON g."accountId" = t."accountId"
      WHERE t."tokenHash" = ${hashToken(token)}`);
  }
  if (domain) {
    parts.push(Prisma.sql`SELECT 'site' AS "kind", a."id" AS "accountId", NULL AS "tokenId", NULL AS "scope",
      0 AS "revoked", a."name", a."domain", ${generation}
      FROM "Account" a JOIN "AccountGeneration" g ON g."accountId" = a."id" WHERE a."domain" = ${domain}`);
  }
  return parts.length === 0 ? Promise.resolve([]) : db.$queryRaw<Row[]>(Prisma.join(parts, " UNION ALL "));
}

function identityOf(rows: Row[], asOf: Date): Identity {
  const generations = new Map<string, AccountGeneration>();
  let viewer: Viewer | null = null;
  let site: SiteAccount | null = null;
  for (const row of rows) {
    generations.set(row.accountId, { content: BigInt(row.content), structure: BigInt(row.structure) });
    if (row.kind === "token" && Number(row.revoked) === 0 && row.tokenId) {
      viewer = {
        accountId: row.accountId,
        scope: row.scope === "read" ? "read" : "write",
        tokenId: row.tokenId,
      };
    } else if (row.kind === "site" && row.name !== null && row.domain !== null) {
      site = { id: row.accountId, name: row.name, domain: row.domain };
    }
  }
  return { viewer, site, generations, asOf };
}

/**
 * The account's entries due by `now` come into view: its content counter moves on, and its next publish
 * moment becomes the first after `now`, unless another write moved the counter since `seen` (that writer's
 * trigger kept the moment at or before its own entries; the next read looks again).
 */
async function advance(db: Db, accountId: string, seen: bigint, now: Date): Promise<void> {
  const next = await db.entry.findFirst({
    where: { accountId, published: true, publishedAt: { gt: now } },
    orderBy: { publishedAt: "asc" },
    select: { publishedAt: true },
  });
  await db.accountGeneration.updateMany({
    where: { accountId, content: seen },
    data: { content: { increment: 1 }, nextPublishAt: next?.publishedAt ?? null },
  });
}
