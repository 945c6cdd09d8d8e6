// Form notifications by email: with SMTP_URL set, a submission to a form with
// notification_enabled mails each notification address, through the outbox table, retrying
// temporary failures and never holding up the submission. The SMTP listener is started by the test.
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import {
  bodyOf,
  createContactForm,
  graphql as graphqlAs,
  submitContact,
  waitFor,
} from "./helpers/contact-form.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let server: TestServer;
let account: TestAccount;
const received: Received[] = [];
/** Answer this many next messages with refusalCode (a temporary 451 unless set otherwise). */
let refuseNext = 0;
let refusalCode = 451;
let refused = 0;
/** While set, new SMTP connections get no greeting (the server looks down). */
let hold: Array<() => void> | null = null;

function startSmtp(): Promise<number> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onConnect(_session, callback) {
      if (hold) hold.push(() => callback());
      else callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refuseNext > 0) {
          refuseNext -= 1;
          refused += 1;
          const error = Object.assign(new Error("Refused"), { responseCode: refusalCode });
          return callback(error);
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  return new Promise((resolve) =>
    smtp.listen(0, "127.0.0.1", () => resolve((smtp.server.address() as AddressInfo).port)),
  );
}

beforeAll(async () => {
  const port = await startSmtp();
  server = await startServer({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    SMTP_FROM: "Acme CMS <cms@acme.test>",
    SMTP_RETRY_DELAY_MS: "100",
  });
  account = await createAccount(server);
  await createContactForm(server, account);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

const graphql = (query: string, variables: object) => graphqlAs(server, account, query, variables);
const submit = (form: Record<string, string>) => submitContact(server, account, form);

describe("form notifications over SMTP", () => {
  it("mails each address the form's name and the submitted fields", async () => {
    const answer = await submit({
      "fields[name]": "Ada Lovelace",
      "fields[message]": "Hello there",
      "fields[copies]": "3",
    });
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ ok: true });
    const mails = await waitFor(() => {
      const mine = received.filter(
        (mail) => mail.raw.includes("Ada Lovelace") || bodyOf(mail.raw).includes("Ada Lovelace"),
      );
      return mine.length >= 2 ? mine : undefined;
    });
    expect(mails.flatMap((mail) => mail.to).sort()).toEqual(["boss@acme.test", "ops@acme.test"]);
    for (const mail of mails) {
      expect(mail.from).toBe("cms@acme.test");
      expect(mail.raw).toMatch(/^From: Acme CMS <cms@acme\.test>\r?$/m);
      expect(mail.raw).toMatch(/^Subject: New submission: Contact us\r?$/m);
      expect(mail.raw).toMatch(/^Message-ID: <submission-cnety_[0-9a-z]{26}-[12]@[^>]+>\r?$/im);
      const body = bodyOf(mail.raw);
      expect(body).toContain('New submission to the form "Contact us" (contact).');
      expect(body).toContain("Your name: Ada Lovelace");
      expect(body).toContain("Message: Hello there");
      expect(body).toContain("Copies: 3");
    }
  });

  it("retries a temporary refusal until the mail arrives", async () => {
    refuseNext = 1;
    refused = 0;
    const answer = await submit({ "fields[name]": "Retry Person" });
    expect(answer.status, answer.text).toBe(200);
    const mails = await waitFor(() => {
      const mine = received.filter((mail) => bodyOf(mail.raw).includes("Retry Person"));
      return mine.length >= 2 ? mine : undefined;
    });
    expect(refused).toBe(1);
    expect(mails.flatMap((mail) => mail.to).sort()).toEqual(["boss@acme.test", "ops@acme.test"]);
    expect(server.output.some((line) => line.includes('"msg":"mail retry"'))).toBe(true);
  });

  it("answers the submission at once while the SMTP server does not respond, and delivers later", async () => {
    hold = [];
    const started = Date.now();
    const answer = await submit({ "fields[name]": "Patient Person" });
    const elapsed = Date.now() - started;
    expect(answer.status, answer.text).toBe(200);
    expect(elapsed).toBeLessThan(1_000);
    // The queue is trying to connect: let it through.
    await waitFor(() => (hold && hold.length > 0 ? true : undefined));
    const waiting = hold;
    hold = null;
    for (const release of waiting) release();
    const mails = await waitFor(() => {
      const mine = received.filter((mail) => bodyOf(mail.raw).includes("Patient Person"));
      return mine.length >= 2 ? mine : undefined;
    });
    expect(mails).toHaveLength(2);
  });

  it("does not retry a permanent refusal", async () => {
    refuseNext = 2;
    refusalCode = 550;
    refused = 0;
    const answer = await submit({ "fields[name]": "Refused Person" });
    expect(answer.status, answer.text).toBe(200);
    await waitFor(() =>
      server.output.filter((line) => line.includes('"msg":"mail dropped"')).length >= 2 ? true : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(refused).toBe(2);
    expect(received.some((mail) => bodyOf(mail.raw).includes("Refused Person"))).toBe(false);
    // Mail log lines name no addresses.
    const mailLines = server.output.filter((line) => line.includes('"msg":"mail'));
    expect(mailLines.length).toBeGreaterThan(0);
    expect(mailLines.join("\n")).not.toContain("@acme.test");
    refusalCode = 451;
  });

  it("sends nothing for a form without notifications", async () => {
    const disabled = await graphql(
      `mutation ($account: ID!) {
        formNotificationsUpdate(account_id: $account, id: "contact", input: { notification_enabled: false }) { notification_enabled }
      }`,
      { account: account.account_id },
    );
    expect(disabled.body.data?.formNotificationsUpdate, disabled.text).toEqual({
      notification_enabled: false,
    });
    const before = received.length;
    const answer = await submit({ "fields[name]": "Quiet Person" });
    expect(answer.status, answer.text).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received.length).toBe(before);
  });

  it("at SIGTERM, waits for queued mail before exiting (the last test: it stops the server)", async () => {
    const enabled = await graphql(
      `mutation ($account: ID!) {
        formNotificationsUpdate(account_id: $account, id: "contact", input: { notification_enabled: true }) { notification_enabled }
      }`,
      { account: account.account_id },
    );
    expect(enabled.body.data?.formNotificationsUpdate, enabled.text).toEqual({ notification_enabled: true });
    hold = [];
    const answer = await submit({ "fields[name]": "Last Person" });
    expect(answer.status, answer.text).toBe(200);
    await waitFor(() => (hold && hold.length > 0 ? true : undefined));
    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = hold;
    hold = null;
    for (const release of waiting) release();
    const mails = await waitFor(() => {
      const mine = received.filter((mail) => bodyOf(mail.raw).includes("Last Person"));
      return mine.length >= 2 ? mine : undefined;
    });
    expect(mails).toHaveLength(2);
    expect(await server.exited).toBe(0);
  });
});
