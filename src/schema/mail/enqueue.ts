// Mail written in a write's transaction (the outbox): acknowledged with the write, rolled back with it.
// Each message's Message-ID is made from the record it tells of and its place in the list, so a
// receiver can tell a repeated delivery (after a crash mid-send) from a new message.
import type { OutgoingMail } from "../../mail/outbox.ts";
import type { Context } from "../context.ts";
import { newId, prefixes } from "../ids.ts";
import type { Tx } from "../webhooks/outbox.ts";

/** `<submission-cnety_…-1@acme.test>`: the source's ID, the message's number, the site's domain. */
export function messageIdOf(sourceId: string, index: number, domain: string): string {
  return `<submission-${sourceId}-${index + 1}@${domain || "localhost"}>`;
}

export async function enqueueMail(
  ctx: Pick<Context, "outbox">,
  tx: Tx,
  source: { accountId: string; id: string; domain: string },
  mails: OutgoingMail[],
): Promise<void> {
  if (!ctx.outbox.enabled || mails.length === 0) return;
  const now = new Date();
  await tx.mailMessage.createMany({
    data: mails.map((mail, index) => ({
      id: newId(prefixes.mail),
      accountId: source.accountId,
      messageId: messageIdOf(source.id, index, source.domain),
      ...mail,
      nextAttemptAt: now,
    })),
  });
  ctx.outbox.nudge();
}
