// Several server processes behave as one: three nodes on one PostgreSQL database, one Redis
// and one local S3 server (s3rver), each with its own data directory, as behind a load balancer. A write
// through one node is read at once through the others (REST, GraphQL, site pages, each kept in its read
// cache beforehand); an asset uploaded through one is served by the others; the anonymous rate budget is
// one budget; each webhook event is delivered once; and a node killed (SIGKILL) under write load loses no
// acknowledged write while the others keep serving. PostgreSQL only: SQLite is one file on one machine.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { seedNotesSite } from "./helpers/notes-site.ts";
import { startS3, type TestBucket } from "./helpers/s3.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteGet, siteGetBytes } from "./helpers/site.ts";
import { type Receiver, startReceiver, waitUntil } from "./helpers/webhook-receiver.ts";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const ANONYMOUS_BUDGET = 30;

let s3: TestBucket;
let hooks: Receiver;
let nodes: TestServer[] = [];
const dirs: string[] = [];
let account: TestAccount;
/** The account's REST client through each node. */
let through: Api[];

describe.skipIf(!usesPostgres)(
  "three server processes on one PostgreSQL, Redis and S3 (PostgreSQL only: run with TEST_DATABASE=postgres)",
  () => {
    beforeAll(async () => {
      s3 = await startS3();
      hooks = await startReceiver();
      const shared = {
        ...s3.env,
        ASSET_STORAGE: `s3://${s3.bucket}/cluster`,
        REDIS_URL: redisUrl,
        RATE_LIMIT_REDIS_PREFIX: `cms-test:${randomBytes(6).toString("hex")}:`,
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: String(ANONYMOUS_BUDGET),
        OUTBOUND_ALLOW_PRIVATE: "true",
        WEBHOOK_POLL_MS: "200",
      };
      const first = await startServer(shared);
      // Each further node has a data directory of its own, as on another machine.
      const others = await Promise.all(
        [1, 2].map(() => {
          const dir = mkdtempSync(join(tmpdir(), "cms-node-"));
          dirs.push(dir);
          return first.twin({ ...shared, CMS_DATA_DIR: dir });
        }),
      );
      nodes = [first, ...others];
      account = await createAccount(first);
      through = nodes.map((node) => api(node, account));
      await seedNotesSite(through[0] as Api);
    }, 90_000);

    afterAll(async () => {
      // The twins first: the first node's stop drops the database.
      for (const node of nodes.slice(1)) await node.stop();
      await nodes[0]?.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      await hooks?.close();
      await s3?.stop();
    });

    const node = (index: number) => nodes[index] as TestServer;
    const client = (index: number) => through[index] as Api;

    function graphql(index: number, query: string): Promise<ApiResponse> {
      return request(`${node(index).url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
        body: JSON.stringify({ query, variables: { account: account.account_id } }),
      });
    }
    const titleQuery = `query ($account: ID!) {
    contentEntry(account_id: $account, collection: "notes", handle: "hello") { title }
  }`;

    /** The entry's title as REST, GraphQL and the site page give it through a node. */
    async function titlesThrough(index: number): Promise<string[]> {
      const rest = await client(index).get("/collections/notes/entries/hello");
      const gql = await graphql(index, titleQuery);
      const page = await siteGet(node(index), "/notes/hello", account.domain);
      return [rest.body.title, gql.body.data?.contentEntry?.title, page.text.trim()];
    }

    it("shows a write through node 1 at once through nodes 2 and 3, over REST, GraphQL and the site", async () => {
      for (const index of [1, 2]) {
        // Read twice: the second answer is kept, so the write must end it.
        await titlesThrough(index);
        expect(await titlesThrough(index)).toEqual(["Hello", "Hello", "<p>Hello</p>"]);
      }
      const kept = await client(1).get("/collections/notes/entries/hello");
      expect(kept.headers.get("x-cache")).toBe("hit");
      // Other readers keep nodes 2 and 3 busy meanwhile, so the notice of a write competes with requests.
      let busy = true;
      const readers = [1, 2, 1, 2].map(async (index) => {
        while (busy) await siteGet(node(index), "/notes/hello", account.domain);
      });
      try {
        for (let round = 1; round <= 20; round++) {
          const title = `Hello ${round}`;
          const written = await client(0).patch("/collections/notes/entries/hello", { title });
          expect(written.status, written.text).toBe(200);
          for (const index of [1, 2])
            expect(await titlesThrough(index)).toEqual([title, title, `<p>${title}</p>`]);
        }
      } finally {
        busy = false;
        await Promise.all(readers);
      }
    });

    it("serves an asset uploaded through one node from every node", async () => {
      const bytes = randomBytes(64 * 1024);
      const form = new FormData();
      form.append(
        "file",
        new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }),
        "shared.bin",
      );
      const uploaded = await client(1).raw(`/v1/accounts/${account.account_id}/assets`, {
        method: "POST",
        body: form,
      });
      expect(uploaded.status, uploaded.text).toBe(201);
      for (const index of [0, 1, 2]) {
        const served = await siteGetBytes(node(index), "/assets/shared.bin", account.domain);
        expect(served.status).toBe(200);
        expect(served.body.equals(bytes)).toBe(true);
      }
    });

    it("shares one anonymous rate budget between the nodes", async () => {
      const statuses: number[] = [];
      // Requests without a token, round robin: the budget is counted once for all three.
      for (let i = 0; i < ANONYMOUS_BUDGET + 6; i++) {
        const response = await fetch(`${node(i % 3).url}/v1/accounts/${account.account_id}/collections`);
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses.filter((status) => status === 401)).toHaveLength(ANONYMOUS_BUDGET);
      expect(statuses.slice(ANONYMOUS_BUDGET)).toEqual(Array(6).fill(429));
    });

    it("delivers each webhook event once, whichever node wrote it and whichever sends it", async () => {
      await expectCreated(client(0).post("/webhooks", { url: hooks.url(), events: ["entry.created"] }));
      const count = 30;
      const created = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          expectCreated(
            client(i % 3).post("/collections/notes/entries", { handle: `hook-${i}`, title: `Hook ${i}` }),
          ),
        ),
      );
      const ids = new Set(created.map((entry) => entry.id));
      await hooks.waitFor((got) => ids.has(got.json?.data?.id), count, 30_000);
      // A moment more: a second delivery of any of them would arrive now.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const delivered = hooks.got.filter((got) => ids.has(got.json?.data?.id));
      expect(delivered).toHaveLength(count);
      expect(new Set(delivered.map((got) => got.id)).size).toBe(count);
      expect(new Set(delivered.map((got) => got.json.data.id))).toEqual(ids);
    }, 60_000);

    it("loses no acknowledged write when a node is killed under write load, and the others keep serving", async () => {
      const acknowledged: string[] = [];
      let failedOnKilled = 0;
      let stop = false;
      const victim = node(2);
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const index = (w + i) % 3;
          const handle = `load-${w}-${i}`;
          try {
            const response = await client(index).post("/collections/notes/entries", {
              handle,
              title: handle,
            });
            if (response.status === 201) acknowledged.push(handle);
            else if (index !== 2)
              throw new Error(`node ${index + 1} answered ${response.status}: ${response.text}`);
          } catch (error) {
            // Only the killed node may fail: its connection is cut.
            if (index !== 2) throw error;
            failedOnKilled++;
          }
        }
      };
      const writers = Promise.all([0, 1, 2, 3, 4, 5].map(writer));
      await waitUntil(
        () => (acknowledged.length >= 30 ? true : undefined),
        30_000,
        () => "30 writes",
      );
      victim.child.kill("SIGKILL");
      await victim.exited;
      const atKill = acknowledged.length;
      await waitUntil(
        () => (acknowledged.length >= atKill + 30 ? true : undefined),
        30_000,
        () => "30 more writes",
      );
      stop = true;
      await writers;
      expect(failedOnKilled).toBeGreaterThan(0);

      // Every acknowledged write is there, through each surviving node.
      for (const index of [0, 1]) {
        const listed = new Set<string>();
        for (let page = 1; ; page++) {
          const response = await client(index).get(`/collections/notes/entries?per_page=100&page=${page}`);
          expect(response.status, response.text).toBe(200);
          for (const entry of response.body.data) listed.add(entry.handle);
          if (page >= response.body.pagination.total_pages) break;
        }
        expect(acknowledged.filter((handle) => !listed.has(handle))).toEqual([]);
        const page = await siteGet(node(index), `/notes/${acknowledged.at(-1)}`, account.domain);
        expect(page.status).toBe(200);
      }
    }, 90_000);
  },
);
