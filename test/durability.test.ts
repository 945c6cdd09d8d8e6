// Durability: the server is killed with SIGKILL in the middle of a write load (entry creates, entry
// PATCHes and uploads from concurrent clients), restarted on the same database and data directory, and every write it had
// acknowledged (2xx) must be there, readable and intact; writes in flight may or may not have happened,
// but never half: no entry without its values, no asset without its bytes, counts that agree.
import { request as httpRequest } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

const WORKERS = 8;
/** Acknowledged writes to wait for before the kill: enough that the kill lands mid-load. */
const ACKED_BEFORE_KILL = 80;

let restarted: TestServer | undefined;
afterAll(() => restarted?.stop());

interface Write {
  kind: "entry" | "asset" | "update";
  key: string;
  body: string;
}

function siteGet(server: TestServer, path: string, host: string): Promise<{ status: number; body: Buffer }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function listAll(client: Api, path: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const response = await client.get(`${path}?page=${page}`);
    expect(response.status, response.text).toBe(200);
    items.push(...response.body.data);
    if (response.body.pagination.next_page === null) return items;
  }
}

describe("SIGKILL during a write load", () => {
  it("keeps every acknowledged write, readable and whole, after a restart on the same database", {
    timeout: 90_000,
  }, async () => {
    const server = await startServer();
    const account: TestAccount = await createAccount(server, "Durable");
    const client = api(server, account);
    await expectCreated(
      client.post("/collections", {
        name: "Log",
        handle: "log",
        routing: "log/:handle",
        blueprint: {
          fields: [
            { handle: "body", type: "text" },
            { handle: "n", type: "number" },
          ],
        },
      }),
    );

    // One counter entry per worker, which that worker PATCHes (n = its iteration) between creates.
    await expectCreated(
      client.post("/collections", {
        name: "Counters",
        handle: "counters",
        routing: "counters/:handle",
        blueprint: { fields: [{ handle: "n", type: "number" }] },
      }),
    );
    for (let w = 0; w < WORKERS; w++) {
      await expectCreated(
        client.post("/collections/counters/entries", { title: `w${w}`, handle: `w${w}`, n: -1 }),
      );
    }

    const acked: Write[] = [];
    const inFlight = new Set<Write>();
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const key = `w${w}-${i}`;
        const write: Write = {
          kind: i % 4 === 3 ? "asset" : i % 4 === 1 ? "update" : "entry",
          key,
          body: `payload of ${key} `.repeat(20),
        };
        inFlight.add(write);
        try {
          const response =
            write.kind === "update"
              ? await client.patch(`/collections/counters/entries/w${w}`, { n: i })
              : write.kind === "entry"
                ? await client.post("/collections/log/entries", {
                    title: key,
                    handle: key,
                    body: write.body,
                    n: i,
                  })
                : await client.post("/assets", {
                    asset: {
                      filename: `${key}.txt`,
                      path: "load",
                      data: Buffer.from(write.body).toString("base64"),
                    },
                  });
          if (response.status >= 200 && response.status < 300) {
            acked.push(write);
            inFlight.delete(write);
          } else if (!killed) {
            throw new Error(`unexpected ${response.status}: ${response.text}`);
          }
        } catch (error) {
          // After the kill, requests fail or are cut off: they stay "in flight" (unknown outcome).
          if (!killed) throw error;
          return;
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, w) => worker(w));
    let failure: unknown;
    for (const running of workers) running.catch((error) => (failure ??= error));
    while (acked.length < ACKED_BEFORE_KILL && failure === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (failure !== undefined) throw failure;
    killed = true;
    server.child.kill("SIGKILL");
    await Promise.all(workers);
    expect(await server.exited).toBe(null);

    restarted = await server.restart();
    const after = api(restarted, account);

    // Every acknowledged entry is there with its values; the list agrees with the count.
    const entries = await listAll(after, "/collections/log/entries");
    const entryKeys = entries.map((entry) => entry.handle);
    expect(new Set(entryKeys).size).toBe(entryKeys.length);
    const ackedEntries = acked.filter((write) => write.kind === "entry");
    const pendingEntries = [...inFlight].filter((write) => write.kind === "entry");
    expect(entryKeys).toEqual(expect.arrayContaining(ackedEntries.map((write) => write.key)));
    for (const key of entryKeys) {
      expect([...ackedEntries, ...pendingEntries].map((write) => write.key)).toContain(key);
    }
    for (const write of [...ackedEntries, ...pendingEntries]) {
      const found = entries.find((entry) => entry.handle === write.key);
      if (!found) continue;
      // Whole: a stored entry (acknowledged or not) has all of what was sent.
      expect(found).toMatchObject({ title: write.key, body: write.body, n: Number(write.key.split("-")[1]) });
    }
    const collection = await after.get("/collections/log");
    expect(collection.body.entries_count).toBe(entries.length);
    const one = ackedEntries.at(-1);
    if (one) expect((await after.get(`/collections/log/entries/${one.key}`)).body.body).toBe(one.body);

    // Each counter holds its last acknowledged update, or the one in flight at the kill.
    for (let w = 0; w < WORKERS; w++) {
      const iteration = (write: Write) => Number(write.key.split("-")[1]);
      const mine = (write: Write) => write.kind === "update" && write.key.startsWith(`w${w}-`);
      const lastAcked = Math.max(-1, ...acked.filter(mine).map(iteration));
      const pending = [...inFlight].filter(mine).map(iteration);
      const counter = await after.get(`/collections/counters/entries/w${w}`);
      expect([lastAcked, ...pending]).toContain(counter.body.n);
    }

    // Every acknowledged upload is listed and served byte for byte; none listed lacks its bytes.
    const assets = (await listAll(after, "/assets")).filter((asset) => asset.path === "load");
    const ackedAssets = acked.filter((write) => write.kind === "asset");
    const pendingAssets = [...inFlight].filter((write) => write.kind === "asset");
    expect(assets.map((asset) => asset.filename)).toEqual(
      expect.arrayContaining(ackedAssets.map((write) => `${write.key}.txt`)),
    );
    for (const asset of assets) {
      const write = [...ackedAssets, ...pendingAssets].find(
        (candidate) => `${candidate.key}.txt` === asset.filename,
      );
      expect(write, asset.filename).toBeDefined();
      const served = await siteGet(restarted, asset.url, account.domain);
      expect(served.status, asset.url).toBe(200);
      expect(served.body.toString()).toBe(write?.body);
    }

    // The restarted server takes writes again, and the in-flight creates can be retried (idempotent by handle).
    for (const write of pendingEntries) {
      const retried = await after.post("/collections/log/entries", {
        title: write.key,
        handle: write.key,
        body: write.body,
      });
      expect([200, 201], retried.text).toContain(retried.status);
    }
    expect(acked.some((write) => write.kind === "update")).toBe(true);
  });
});
