// Backups: `cms backup` taken while 8 writers create entries, restored by `cms restore` into
// a fresh data directory (or PostgreSQL database): every entry acknowledged before the backup started is
// there, whole, and the restored server renders the same pages and serves the same asset bytes as the
// original. A restore into an instance that is not empty is refused in one line.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { cms, createAccount } from "./helpers/cli.ts";
import { emptyInstance, startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

const WRITERS = 8;
const work = mkdtempSync(join(tmpdir(), "cms-backup-test-"));
const servers: TestServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
});

async function listAll(client: Api, path: string): Promise<{ handle: string; body: string }[]> {
  const items: { handle: string; body: string }[] = [];
  for (let page = 1; ; page++) {
    const response = await client.get(`${path}?page=${page}&per_page=100`);
    expect(response.status, response.text).toBe(200);
    items.push(...response.body.data);
    if (response.body.pagination.next_page === null) return items;
  }
}

describe("cms backup and cms restore", () => {
  it("copies a live instance: every entry acknowledged before the backup, the same pages and assets", {
    timeout: 180_000,
  }, async () => {
    const original = await startServer();
    servers.push(original);
    const account = await createAccount(original, "Backed up");
    const client = api(original, account);
    await expectCreated(
      client.post("/templates", {
        template: { handle: "note", html: "<h1>{{ title }}</h1><p>{{ body }}</p>" },
      }),
    );
    await expectCreated(
      client.post("/collections", {
        name: "Notes",
        handle: "notes",
        routing: "notes/:handle",
        template_handle: "note",
        blueprint: { fields: [{ handle: "body", type: "text" }] },
      }),
    );
    const logo = Buffer.from("the logo's bytes ".repeat(100));
    const asset = await client.post("/assets", {
      asset: { filename: "logo.txt", path: "brand", data: logo.toString("base64") },
    });
    expect(asset.status, asset.text).toBe(201);

    const acked: { handle: string; body: string; at: number }[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const note = { handle: `w${w}-${i}`, title: `Note ${w}/${i}`, body: `body of w${w}-${i}` };
        const created = await client.post("/collections/notes/entries", note);
        expect(created.status, created.text).toBe(201);
        acked.push({ ...note, at: Date.now() });
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    while (acked.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));

    const started = Date.now();
    const before = acked.filter((note) => note.at < started);
    const file = join(work, "instance.tar.gz");
    const backup = await cms(original, ["backup", "--out", file, "--json"]);
    const duringBackup = acked.length - before.length;
    stop = true;
    await Promise.all(writers);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ file, assets: 1 });
    // The writers went on while the backup ran: it took no lock that held them up.
    expect(duringBackup).toBeGreaterThan(0);

    const fresh = await emptyInstance();
    const restore = await cms(original, ["restore", file], fresh.env);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^restored the (sqlite|postgresql) database and 1 asset file from /);
    const restored = await fresh.start();
    servers.push(restored);

    const entries = await listAll(api(restored, account), "/collections/notes/entries");
    const kept = new Map(entries.map((entry) => [entry.handle, entry.body]));
    for (const note of before) expect(kept.get(note.handle), note.handle).toBe(note.body);

    // The same pages, byte for byte: each entry acknowledged before the backup, and the asset.
    for (const note of before) {
      const path = `/notes/${note.handle}`;
      const [was, is] = await Promise.all([
        siteGet(original, path, account.domain),
        siteGet(restored, path, account.domain),
      ]);
      expect(was.status, path).toBe(200);
      expect(is.status, path).toBe(200);
      expect(is.text, path).toBe(was.text);
      expect(is.text).toContain(`<p>${note.body}</p>`);
    }
    const logoPath = new URL(asset.body.url, original.url).pathname;
    const served = await siteGet(restored, logoPath, account.domain);
    expect(served.status, logoPath).toBe(200);
    expect(served.text).toBe(logo.toString());

    // Restoring again into the now filled instance: one line, exit 1, nothing changed.
    const again = await cms(original, ["restore", file], fresh.env);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toMatch(/^cms: restore needs an empty database: .+$/);
  });

  it.skipIf(!usesPostgres)(
    "on PostgreSQL without pg_dump, says so in one line and writes nothing",
    async () => {
      const server = await startServer();
      servers.push(server);
      const file = join(work, "no-tools.tar.gz");
      const result = await cms(server, ["backup", "--out", file], { PATH: "/nonexistent" });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^cms: pg_dump is not on PATH: .*postgresql-client\)$/);
      expect(existsSync(file)).toBe(false);
    },
  );
});
