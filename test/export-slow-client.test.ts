// The streamed export (GET /export.yaml) is read from the database while it is sent, so past the request's
// deadline (REQUEST_TIMEOUT_MS) when it is large or its client slow: the deadline bounds the work before an
// answer (src/db/deadline.ts), and the client still gets the whole document.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import { api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

/**
 * Short, so that the document (32 MB of entries, a few hundred ms to read and write) is read on past it;
 * the work before the answer (the token, the counts) takes a few ms.
 */
const TIMEOUT_MS = 120;
const ENTRIES = 200;
const BODY = `<p>${"x".repeat(160_000)}</p>`;

/** Seeds with the default timeout; `server`, a twin on the same database, exports with the short one. */
let seeder: TestServer;
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  seeder = await startServer();
  account = await createAccount(seeder, "Slow reader");
  const client = api(seeder, account);
  await expectCreated(
    client.post("/collections", {
      name: "Notes",
      handle: "notes",
      routing: "notes/:handle",
      blueprint: { fields: [{ handle: "body", type: "rich_text" }] },
    }),
  );
  for (let start = 0; start < ENTRIES; start += 10) {
    const batch = Array.from({ length: 10 }, (_, i) =>
      client.post("/collections/notes/entries", { handle: `n-${start + i}`, title: "Note", body: BODY }),
    );
    for (const response of await Promise.all(batch)) expect(response.status, response.text).toBe(201);
  }
  server = await seeder.twin({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
  // The work before the answer, warmed (HEAD does it and sends the headers only): a cold process may take
  // longer than the short timeout over its first request.
  for (let tries = 0; tries < 10; tries++) {
    const head = await fetch(`${server.url}/v1/accounts/${account.account_id}/export.yaml`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${account.token}` },
    });
    if (head.status === 200) break;
  }
}, 120_000);
afterAll(async () => {
  // The twin keeps the database; the seeder drops it.
  await server?.stop();
  await seeder?.stop();
});

/**
 * One export read by a client that pauses past the deadline after the first chunk. A 503 is the deadline
 * passing before the answer began (a loaded machine can take longer than the short timeout over the work
 * before it): that answer is whole at once, and says nothing of the stream.
 */
function slowExport(): Promise<{ status: number | undefined; text: string }> {
  const { hostname, port } = new URL(server.url);
  const path = `/v1/accounts/${account.account_id}/export.yaml`;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: hostname, port, path, headers: { authorization: `Bearer ${account.token}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.once("data", (chunk: Buffer) => {
          chunks.push(chunk);
          response.pause();
          setTimeout(() => {
            response.on("data", (more: Buffer) => chunks.push(more));
            response.resume();
          }, TIMEOUT_MS * 2);
        });
        response.on("end", () =>
          resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString() }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

it("sends the whole document to a client that stops reading past the request's deadline", async () => {
  let answer = await slowExport();
  for (let tries = 1; answer.status === 503 && tries < 10; tries++) answer = await slowExport();
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  const document = parse(answer.text);
  expect(document.entries.notes).toHaveLength(ENTRIES);
  expect(document.complete).toBe(true);
  expect(server.output.join("\n")).not.toMatch(/export failed/);
}, 60_000);
