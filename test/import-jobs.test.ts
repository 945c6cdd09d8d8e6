// An import never stalls the server (docs/export-format.md, Import): the YAML is read in a worker thread
// with its own time and memory limits, the checks and writes run in slices that let other requests
// through, and a large import is a job (202) whose progress and report are read over REST and GraphQL.
// While a hostile document (one alias to a 50,000-key flow mapping, which `yaml`'s duplicate-key check
// took 43 s and more to read, on the event loop) and a 15,000-entry one are imported, /healthz and another
// account's read keep answering. And a .tar.gz whose asset bytes are missing is refused, naming the asset.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import SqliteFile from "better-sqlite3";
import pg from "pg";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

let server: TestServer;
let importer: TestAccount;
let other: Api;

beforeAll(async () => {
  server = await startServer();
  [importer, other] = await Promise.all([
    createAccount(server, "Importer"),
    createAccount(server, "Other").then((account) => api(server, account)),
  ]);
  await expectCreated(other.post("/collections", { name: "Blog", handle: "blog", routing: "blog/:handle" }));
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const head = [
  "format: cms-site/1",
  "collections:",
  "  - handle: notes",
  "    name: Notes",
  "    routing: notes/:handle",
  "    blueprints:",
  "      - handle: note",
  "        title: Note",
  "        fields:",
  "          - { handle: body, type: text }",
  "entries:",
  "  notes:",
];

function entriesDocument(count: number, from = 0): string {
  const lines = [...head];
  for (let index = from; index < from + count; index++)
    lines.push(
      `    - { handle: n${index}, title: Note ${index}, values: { body: "Body of note ${index}" } }`,
    );
  return [...lines, "complete: true", ""].join("\n");
}

/** One entry's values a flow mapping of 50,000 keys, a second's an alias to it. */
function hostileDocument(): string {
  const keys = Array.from({ length: 50_000 }, (_, index) => `k${index}: v${index}`).join(", ");
  return [
    ...head,
    `    - { handle: a, title: A, values: &big {${keys}} }`,
    "    - { handle: b, title: B, values: *big }",
    "complete: true",
    "",
  ].join("\n");
}

function importYaml(text: string, query = "", headers: Record<string, string> = {}): Promise<ApiResponse> {
  return request(`${server.url}/v1/accounts/${importer.account_id}/import${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${importer.token}`, "content-type": "application/yaml", ...headers },
    body: text,
  });
}

async function ms(work: () => Promise<ApiResponse>): Promise<number> {
  const started = performance.now();
  const response = await work();
  expect(response.status, response.text).toBe(200);
  return performance.now() - started;
}

const health = () => request(`${server.url}/healthz`);
const otherRead = () => other.get("/collections");

/**
 * The longest /healthz and other-account read while `work` runs. Each is held to a second, or twenty
 * times what it took before the import on this machine now, whichever is more: a loaded machine slows
 * every answer, a stalled event loop holds them for the whole import.
 */
async function whileAnswering<T>(work: () => Promise<T>): Promise<T> {
  const before: number[] = [];
  for (let round = 0; round < 5; round++) before.push(await ms(health), await ms(otherRead));
  const bound = Math.max(1_000, 20 * (before.sort((a, b) => a - b)[before.length >> 1] as number));
  let done = false;
  const pending = work().finally(() => {
    done = true;
  });
  const worst = { health: 0, read: 0, polls: 0 };
  while (!done) {
    const [h, r] = await Promise.all([ms(health), ms(otherRead)]);
    worst.health = Math.max(worst.health, h);
    worst.read = Math.max(worst.read, r);
    worst.polls++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(worst.polls).toBeGreaterThan(1);
  expect(worst.health, `/healthz (bound ${bound} ms)`).toBeLessThan(bound);
  expect(worst.read, `another account's read (bound ${bound} ms)`).toBeLessThan(bound);
  return pending;
}

describe("an import never stalls the server", () => {
  it("a hostile document is refused with a 422 while /healthz and another account's reads answer", async () => {
    const text = hostileDocument();
    expect(text.length).toBeGreaterThan(700_000);
    const response = await whileAnswering(() => importYaml(text, "?dry_run=true"));
    expect(response.status, response.text.slice(0, 500)).toBe(422);
    expect(response.body.error).toBe("Import refused: nothing was written");
    // Refused while it is read: one of its mappings is wider than any record's.
    const wide = "must not hold more than 10,000 keys in one mapping";
    expect(response.body.details).toEqual([
      { path: "entries.notes[0].values", message: wide },
      { path: "entries.notes[1].values", message: wide },
    ]);
  }, 60_000);

  it("a 15,000-entry import answers while /healthz and another account's reads answer", async () => {
    const response = await whileAnswering(() => importYaml(entriesDocument(15_000)));
    expect(response.status, response.text.slice(0, 500)).toBe(200);
    expect(response.body.created).toMatchObject({ collections: 1, entries: 15_000 });
  }, 120_000);
});

describe("a large import is a job", () => {
  it("answers 202 with a job whose end is the synchronous answer's report, over REST and GraphQL", async () => {
    const text = entriesDocument(2_000, 20_000);
    const dry = await importYaml(text, "?dry_run=true");
    expect(dry.status, dry.text).toBe(200);
    const accepted = await importYaml(text, "", { prefer: "respond-async" });
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.headers.get("preference-applied")).toBe("respond-async");
    const job = accepted.body;
    expect(job).toMatchObject({ id: expect.stringMatching(/^impjb_/), status: "running", dry_run: false });
    expect(accepted.headers.get("location")).toBe(
      `/v1/accounts/${importer.account_id}/import/jobs/${job.id}`,
    );
    const read = () => api(server, importer).raw(accepted.headers.get("location") as string);
    let state = (await read()).body;
    for (let tries = 0; state.status === "running" && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = (await read()).body;
    }
    expect(state.status, JSON.stringify(state)).toBe("succeeded");
    expect(state.error).toBeNull();
    expect(state.report).toEqual({ ...dry.body, dry_run: false });
    expect(state.progress).toEqual({ done: 2_000, total: 2_000 });
    expect(state.finished_at).toEqual(expect.any(String));

    const graphql = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${importer.token}` },
      body: JSON.stringify({
        query: "query ($a: ID!, $id: ID!) { importJob(account_id: $a, id: $id) }",
        variables: { a: importer.account_id, id: job.id },
      }),
    });
    expect(graphql.body.errors, graphql.text).toBeUndefined();
    expect(graphql.body.data.importJob).toEqual(state);
    // Written all or nothing: the entries are there.
    const entries = await api(server, importer).get("/collections/notes/entries?per_page=1");
    expect(entries.status, entries.text).toBe(200);

    // Another account's token cannot read it.
    const foreign = await other.raw(`/v1/accounts/${importer.account_id}/import/jobs/${job.id}`);
    expect(foreign.status).toBe(403);
    const missing = await api(server, importer).raw(
      `/v1/accounts/${importer.account_id}/import/jobs/impjb_x`,
    );
    expect(missing.body).toEqual({ error: "Import job not found", details: [] });
    expect(missing.status).toBe(404);
  }, 60_000);

  it("a job whose import is refused ends failed with the synchronous answer's error", async () => {
    const accepted = await importYaml("format: cms-site/1\ntemplates: 3\n", "", { prefer: "respond-async" });
    expect(accepted.status, accepted.text).toBe(202);
    let state = accepted.body;
    for (let tries = 0; state.status === "running" && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = (await api(server, importer).raw(accepted.headers.get("location") as string)).body;
    }
    const direct = await importYaml("format: cms-site/1\ntemplates: 3\n");
    expect(direct.status).toBe(422);
    expect(state).toMatchObject({ status: "failed", report: null, error: { status: 422, ...direct.body } });
  }, 30_000);
});

/**
 * Runs one statement on a server's database (the SQLite file, or its PostgreSQL database): its rows.
 * Parameters are written `$1`, `$2`... in order. A date is written as Prisma writes it on either.
 */
async function sql(on: TestServer, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (!usesPostgres) {
    const db = new SqliteFile(join(String(on.env.CMS_DATA_DIR), "cms.db"), { timeout: 5_000 });
    try {
      const statement = db.prepare(text.replace(/\$\d+/g, "?"));
      if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
      statement.run(...values);
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: on.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe("a job whose server stopped before it ended", () => {
  it("is answered failed once its row is stale, by every transport, and recorded; a fresh one runs", async () => {
    const first = await startServer();
    let second: TestServer | undefined;
    try {
      const owner = await createAccount(first, "Stopped");
      const start = async (from: number) => {
        const accepted = await request(`${first.url}/v1/accounts/${owner.account_id}/import`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${owner.token}`,
            "content-type": "application/yaml",
            prefer: "respond-async",
          },
          body: entriesDocument(8_000, from),
        });
        expect(accepted.status, accepted.text).toBe(202);
        return accepted.body.id as string;
      };
      const stale = await start(40_000);
      const fresh = await start(60_000);
      // The process dies as a crash would: its imports' transactions roll back, the rows stay running.
      first.child.kill("SIGKILL");
      await first.exited;
      const status = `SELECT "id", "status" FROM "ImportJob" ORDER BY "id"`;
      expect(await sql(first, status)).toEqual(
        [stale, fresh].sort().map((id) => ({ id, status: "running" })),
      );
      // Untouched for two hours: longer than the staleness on either database (31 minutes on SQLite).
      const aged = new Date(Date.now() - 2 * 3_600_000).toISOString().replace("Z", "+00:00");
      await sql(first, `UPDATE "ImportJob" SET "updatedAt" = $1 WHERE "id" = $2`, [aged, stale]);
      second = await first.restart();

      const read = (id: string) =>
        api(second as TestServer, owner).raw(`/v1/accounts/${owner.account_id}/import/jobs/${id}`);
      const graphqlAnswer = async (id: string) => {
        const response = await request(`${(second as TestServer).url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${owner.token}` },
          body: JSON.stringify({
            query: "query ($a: ID!, $id: ID!) { importJob(account_id: $a, id: $id) }",
            variables: { a: owner.account_id, id },
          }),
        });
        expect(response.body.errors, response.text).toBeUndefined();
        return { job: response.body.data.importJob, cache: response.headers.get("x-cache") };
      };
      const graphql = async (id: string) => (await graphqlAnswer(id)).job;
      const answered = await read(stale);
      expect(answered.status, answered.text).toBe(200);
      expect(answered.body).toMatchObject({
        id: stale,
        status: "failed",
        report: null,
        error: {
          status: 503,
          error: "The server running this import stopped before it ended; nothing was written",
          details: [],
        },
        finished_at: expect.any(String),
      });
      expect((await read(stale)).body).toEqual(answered.body);
      expect(await graphql(stale)).toEqual(answered.body);
      expect(await sql(second, status)).toEqual(
        [stale, fresh].sort().map((id) => ({ id, status: id === stale ? "failed" : "running" })),
      );
      // Nothing was written.
      const entries = await api(second, owner).raw(
        `/v1/accounts/${owner.account_id}/collections/notes/entries`,
      );
      expect(entries.status, entries.text).toBe(404);
      expect(entries.body.error, entries.text).toMatch(/not found/i);

      // A job touched within the staleness may still run (in another process): it is answered running.
      const running = await read(fresh);
      expect(running.body, running.text).toMatchObject({ id: fresh, status: "running", error: null });
      expect(await graphql(fresh)).toMatchObject({ id: fresh, status: "running", error: null });
      // A running job's answer is not kept (its progress and its staleness are no change of data); an
      // ended one is.
      expect((await graphqlAnswer(fresh)).cache).toBe("miss");
      expect((await graphqlAnswer(stale)).cache).toBe("hit");
    } finally {
      await (second ?? first).stop();
    }
  }, 60_000);
});

describe("a .tar.gz's asset bytes", () => {
  it("missing (the member is a link, skipped) is a 422 naming the asset, nothing written", async () => {
    const bytes = Buffer.from("hello");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const document =
      "format: cms-site/1\nassets:\n" +
      `  - { path: docs, filename: a.txt, content_type: text/plain, size: ${bytes.length}, sha256: "${sha256}" }\n` +
      "complete: true\n";
    const pack = tar.pack();
    pack.entry({ name: "site.yaml" }, document);
    pack.entry({ name: "assets/docs/a.txt", type: "symlink", linkname: "/etc/passwd" });
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    const response = await request(`${server.url}/v1/accounts/${importer.account_id}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${importer.token}`, "content-type": "application/gzip" },
      body: new Uint8Array(gzipSync(Buffer.concat(chunks))),
    });
    expect(response.body, response.text).toEqual({
      error: "Import refused: nothing was written",
      details: [
        {
          path: "assets[0]",
          line: 3,
          message:
            "the bytes of assets/docs/a.txt are not in the archive (the document gives their size and sha256)",
        },
      ],
    });
    expect(response.status).toBe(422);
    const assets = await api(server, importer).get("/assets");
    expect(assets.status, assets.text).toBe(200);
    expect(JSON.stringify(assets.body)).not.toContain("a.txt");
  });
});
