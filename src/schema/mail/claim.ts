// Taking due messages for one sender, as webhook deliveries are taken (../webhooks/claim.ts): a claim
// moves each row's `nextAttemptAt` ahead by a lease, so no other process sends it meanwhile; on
// PostgreSQL with FOR UPDATE SKIP LOCKED, so that senders of several processes take disjoint rows.
import type { Database } from "../../db/client.ts";
import { Prisma } from "../../generated/sqlite/client.ts";

export interface ClaimedMail {
  id: string;
  messageId: string;
  to: string;
  subject: string;
  text: string;
  attempts: number;
}

export async function claimDueMail(
  database: Database,
  limit: number,
  leaseMs: number,
): Promise<ClaimedMail[]> {
  const now = new Date();
  // A read first: an idle server's poll writes nothing.
  const due = await database.db.mailMessage.findFirst({
    where: { status: "pending", nextAttemptAt: { lte: now } },
    select: { id: true },
  });
  if (!due) return [];
  const lease = new Date(now.getTime() + leaseMs);
  const skipLocked = database.provider === "postgresql" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty;
  const rows = await database.db.$queryRaw<{ id: string }[]>(Prisma.sql`
    UPDATE "MailMessage" SET "nextAttemptAt" = ${lease}, "updatedAt" = ${now}
    WHERE "id" IN (
      SELECT "id" FROM "MailMessage"
      WHERE "status" = 'pending' AND "nextAttemptAt" <= ${now}
      ORDER BY "id" LIMIT ${limit} ${skipLocked})
    RETURNING "id"`);
  if (rows.length === 0) return [];
  return database.db.mailMessage.findMany({
    where: { id: { in: rows.map((row) => row.id) } },
    select: { id: true, messageId: true, to: true, subject: true, text: true, attempts: true },
    orderBy: { id: "asc" },
  });
}
