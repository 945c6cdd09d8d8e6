// Durable notifications: a form notification is written in the submission's transaction and
// sent by whichever server process claims it. Submitted while the SMTP server is down, the CMS then
// killed with SIGKILL and restarted (with a second process alongside, both sending), each address gets
// the message exactly once when SMTP comes back, under the Message-ID made from the submission.

import type { AddressInfo } from "node:net";
import { createServer as createTcpServer } from "node:net";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { afterAll, describe, expect, it } from "vitest";
import { createAccount } from "./helpers/cli.ts";
import { bodyOf, createContactForm, NOTIFIED, submitContact, waitFor } from "./helpers/contact-form.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

const received: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer | undefined;
const servers: TestServer[] = [];

afterAll(async () => {
  for (const server of servers.reverse()) await server.stop().catch(() => {});
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** A loopback port nothing listens on (yet): connections to it are refused, as to an SMTP server that is down. */
async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function startSmtp(port: number): Promise<void> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  return new Promise((resolve) => smtp?.listen(port, "127.0.0.1", () => resolve()));
}

describe("a notification survives an SMTP outage and a SIGKILL", () => {
  it("is delivered exactly once per address after the restart, with the submission's Message-ID", {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    const first = await startServer({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      // Retries 2 s apart: the kill below comes between two attempts, not during one (an attempt cut
      // short keeps its claim's lease, two minutes, before another process may take it).
      SMTP_RETRY_DELAY_MS: "2000",
      SMTP_RETRY_MAX_DELAY_MS: "2000",
    });
    servers.push(first);
    const account = await createAccount(first);
    await createContactForm(first, account);

    const answer = await submitContact(first, account, { "fields[name]": "Durable Person" });
    expect(answer.status, answer.text).toBe(200);
    // Every message's first attempt has failed (connection refused): each now waits in the database only.
    // Killed while one message's attempt is still under way, its claim would hold for its lease (two
    // minutes), longer than this test waits: so the kill waits for a retry line per message.
    const retries = () => first.output.filter((line) => line.includes('"msg":"mail retry"')).length;
    await waitFor(() => (retries() >= NOTIFIED.length ? true : undefined));
    first.child.kill("SIGKILL");
    expect(await first.exited).not.toBe(0);

    const restarted = await first.restart();
    servers.push(restarted);
    // Two processes now claim from the same outbox: still one delivery per message.
    servers.push(await restarted.twin());
    await startSmtp(port);

    const mine = () => received.filter((mail) => bodyOf(mail.raw).includes("Durable Person"));
    await waitFor(() => (mine().length >= NOTIFIED.length ? true : undefined), 30_000);
    // Long enough for a second delivery by either process's retries or polls to have arrived.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const mails = mine();
    expect(mails.flatMap((mail) => mail.to).sort()).toEqual(NOTIFIED);
    const ids = mails.map((mail) => /^Message-ID: (.*?)\r?$/im.exec(mail.raw)?.[1]);
    for (const id of ids) expect(id).toMatch(/^<submission-cnety_[0-9a-z]{26}-[12]@[^>]+>$/);
    expect(new Set(ids).size).toBe(NOTIFIED.length);
    expect(bodyOf(mails[0]?.raw ?? "")).toContain('New submission to the form "Contact us" (contact).');
  });
});
