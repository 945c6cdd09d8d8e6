// Taking due messages for one sender, leased as ../outbox-lease.ts says: no other process sends a
// message while this one may.
import type { Database } from "../../db/client.ts";
import { leaseDue } from "../outbox-lease.ts";

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
  const ids = await leaseDue(database, "MailMessage", { now, limit, leaseMs });
  if (ids.length === 0) return [];
  return database.db.mailMessage.findMany({
    where: { id: { in: ids } },
    select: { id: true, messageId: true, to: true, subject: true, text: true, attempts: true },
    orderBy: { id: "asc" },
  });
}
