// Rules that hold across an account's records (one root-routed collection, one entry at each override
// path) are checked inside the write's transaction, after this lock: two writes checking such a rule at
// once would each find it kept and together break it. On PostgreSQL it is the account row's lock until
// the transaction ends, in the mode that leaves inserts naming the account free (their foreign key takes
// a share of it); SQLite runs one write transaction at a time, so a check inside one already sees every
// write before it.
import { Prisma } from "../generated/sqlite/client.ts";
import type { Context } from "./context.ts";
import type { Tx } from "./webhooks/outbox.ts";

/** Transactions that hold the lock already: the rules a write checks each ask for it. */
const locked = new WeakSet<Tx>();

export async function lockAccount(ctx: Context, tx: Tx, accountId: string): Promise<void> {
  if (ctx.provider !== "postgresql" || locked.has(tx)) return;
  await tx.$queryRaw(Prisma.sql`SELECT 1 FROM "Account" WHERE "id" = ${accountId} FOR NO KEY UPDATE`);
  locked.add(tx);
}
