// A site's contact form with notifications to two addresses, posted to as a browser would (the form
// tests and the notification durability test), and reading what arrived.
import { request as httpRequest } from "node:http";
import { expect } from "vitest";
import { api, request } from "./api.ts";
import type { TestAccount } from "./cli.ts";
import type { TestServer } from "./server.ts";

export const NOTIFIED = ["boss@acme.test", "ops@acme.test"];

export function graphql(server: TestServer, account: TestAccount, query: string, variables: object) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ query, variables }),
  });
}

/** The collection `messages` and the form `contact` storing into it, notifying NOTIFIED. */
export async function createContactForm(server: TestServer, account: TestAccount): Promise<void> {
  const client = api(server, account);
  const collection = await client.post("/collections", {
    name: "Messages",
    handle: "messages",
    routing: "messages/:handle",
    blueprint: {
      handle: "messages",
      fields: [
        { handle: "name", display: "Your name", type: "text", options: { required: true } },
        { handle: "message", display: "Message", type: "text" },
        { handle: "copies", display: "Copies", type: "number" },
      ],
    },
  });
  expect(collection.status, collection.text).toBe(201);
  const form = await client.post("/forms", {
    title: "Contact us",
    handle: "contact",
    collection_handle: "messages",
    blueprint_handle: "messages",
  });
  expect(form.status, form.text).toBe(201);
  const enabled = await graphql(
    server,
    account,
    `mutation ($account: ID!, $input: FormNotificationsInput!) {
      formNotificationsUpdate(account_id: $account, id: "contact", input: $input) { notification_enabled notification_emails }
    }`,
    {
      account: account.account_id,
      input: { notification_enabled: true, notification_emails: ["ops@acme.test", "boss@acme.test"] },
    },
  );
  expect(enabled.body.data?.formNotificationsUpdate, enabled.text).toEqual({
    notification_enabled: true,
    notification_emails: "ops@acme.test, boss@acme.test",
  });
}

/** Posts the contact form on the account's site (Host: its domain), asking for JSON. */
export function submitContact(server: TestServer, account: TestAccount, form: Record<string, string>) {
  const { port } = new URL(server.url);
  const body = new URLSearchParams(form).toString();
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/cms/contact/submit",
        method: "POST",
        headers: {
          host: account.domain,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export async function waitFor<T>(check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error("timed out waiting for mail");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The decoded text of a simple (7bit or quoted-printable) message. */
export function bodyOf(raw: string): string {
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  return /content-transfer-encoding: quoted-printable/i.test(raw)
    ? body
        .replace(/=\r\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)))
    : body;
}
