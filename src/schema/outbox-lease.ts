// Taking due rows of an outbox table (webhook deliveries, mail) for one sender. A claim moves each row's
// `nextAttemptAt` ahead by a lease: no other sender takes it until the lease runs out (a sender that
// died mid-attempt leaves it to be retried then: at least once). On PostgreSQL the rows are picked with
// FOR UPDATE SKIP LOCKED, so concurrent senders of several processes take disjoint rows without waiting
// on each other; SQLite runs one write at a time, which gives the same.
import type { Database } from "../db/client.ts";
import { Prisma } from "../generated/sqlite/client.ts";

/**
 * The IDs of at most `limit` pending rows of `table` due at `now`, in ID order, now leased to the caller.
 * `also` adds conditions on the candidate row, aliased `d`.
 */
export async function leaseDue(
  database: Database,
  table: "WebhookDelivery" | "MailMessage",
  options: { now: Date; limit: number; leaseMs: number; also?: Prisma.Sql },
): Promise<string[]> {
  const { now, limit, leaseMs, also = Prisma.empty } = options;
  const lease = new Date(now.getTime() + leaseMs);
  const skipLocked = database.provider === "postgresql" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty;
  const name = Prisma.raw(`"${table}"`);
  const rows = await database.db.$queryRaw<{ id: string }[]>(Prisma.sql`
    UPDATE ${name} SET "nextAttemptAt" = ${lease}, "updatedAt" = ${now}
    WHERE "id" IN (
      SELECT d."id" FROM ${name} d
      WHERE d."status" = 'pending' AND d."nextAttemptAt" <= ${now} ${also}
      ORDER BY d."id" LIMIT ${limit} ${skipLocked})
    RETURNING "id"`);
  return rows.map((row) => row.id);
}
