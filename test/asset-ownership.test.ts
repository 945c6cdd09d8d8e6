// Two databases never delete each other's files: a server on SQLite and one on PostgreSQL started on the
// same data directory each keep their uploads in their own installation folder (src/storage/storage.ts).
// Each one's start-up sweep removes its own hour-old orphan only, `cms doctor` reports nothing of the
// other's, and `cms backup` takes its own files only. A file of the layout from before installation
// folders is still served to the installation whose rows name it, backed up by it, and never swept.
import { existsSync, mkdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api } from "./helpers/api.ts";
import { accountFolder, assetsRoot, installationFolders } from "./helpers/asset-files.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { waitFor } from "./helpers/contact-form.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

const servers: TestServer[] = [];
afterAll(async () => {
  // The PostgreSQL server first: the SQLite one's stop removes the shared data directory.
  for (const server of servers.reverse()) await server.stop().catch(() => {});
});

const orphanId = (n: number) => `acass_${String(n).padStart(26, "0")}`;
const twoHoursAgo = () => new Date(Date.now() - 2 * 3_600_000);

function age(file: string): void {
  const then = twoHoursAgo();
  utimesSync(file, then, then);
}

interface Side {
  server: TestServer;
  account: TestAccount;
  assetId: string;
  /** Its installation folder's name. */
  installation: string;
}

async function uploadOn(server: TestServer, filename: string): Promise<Omit<Side, "installation">> {
  const account = await createAccount(server);
  const created = await api(server, account).post("/assets", {
    asset: { filename, data: Buffer.from(`bytes of ${filename}`).toString("base64") },
  });
  expect(created.status, created.text).toBe(201);
  return { server, account, assetId: created.body.id };
}

async function served(side: Side, filename: string): Promise<string> {
  const response = await siteGet(side.server, `/assets/${filename}`, side.account.domain);
  expect(response.status, response.text).toBe(200);
  return response.text;
}

async function doctor(side: Side) {
  const result = await cms(side.server, ["doctor", "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { orphan_files: { asset_id: string }[]; missing_files: unknown[] };
}

async function restartSwept(side: Side): Promise<void> {
  side.server = await side.server.restart();
  servers.push(side.server);
  const swept = (line: string) => line.includes('"msg":"orphan asset files removed","removed":1');
  await waitFor(() => (side.server.output.some(swept) ? true : undefined), 20_000);
}

describe("a SQLite server and a PostgreSQL server on one data directory", () => {
  it("each keep their own uploads across the other's start-up sweep, doctor and backup", {
    timeout: 120_000,
  }, async () => {
    const lite = await startServer({}, { database: "sqlite" });
    servers.push(lite);
    const dataDir = String(lite.env.CMS_DATA_DIR);
    const postgres = await startServer({ CMS_DATA_DIR: dataDir }, { database: "postgres" });
    servers.push(postgres);

    const first = await uploadOn(lite, "lite.txt");
    const liteFolders = installationFolders(lite);
    expect(liteFolders).toHaveLength(1);
    const second = await uploadOn(postgres, "pg.txt");
    const pgFolder = installationFolders(postgres).find((name) => !liteFolders.includes(name));
    const a: Side = { ...first, installation: liteFolders[0] ?? "" };
    const b: Side = { ...second, installation: pgFolder ?? "" };
    expect(b.installation).toMatch(/^inst_[0-9a-z]{26}$/);
    const fileOf = (side: Side, assetId = side.assetId) =>
      join(accountFolder(side.server, side.account.account_id, side.installation), assetId);

    // Both uploads are old enough for any sweep; each installation also has an old orphan of its own.
    for (const side of [a, b]) {
      age(fileOf(side));
      writeFileSync(fileOf(side, orphanId(side === a ? 1 : 2)), "left by a crash");
      age(fileOf(side, orphanId(side === a ? 1 : 2)));
    }
    // An upgraded installation: the SQLite one's second file still in the layout from before installation
    // folders, and an old file there that neither database names.
    const upgraded = await api(lite, a.account).post("/assets", {
      asset: { filename: "legacy.txt", data: Buffer.from("bytes of legacy.txt").toString("base64") },
    });
    expect(upgraded.status, upgraded.text).toBe(201);
    const legacyDir = join(assetsRoot(lite), a.account.account_id);
    mkdirSync(legacyDir, { recursive: true });
    renameSync(fileOf(a, upgraded.body.id), join(legacyDir, upgraded.body.id));
    age(join(legacyDir, upgraded.body.id));
    const unknownLegacy = join(assetsRoot(lite), "acct_00000000000000000000000000", orphanId(3));
    mkdirSync(join(unknownLegacy, ".."), { recursive: true });
    writeFileSync(unknownLegacy, "nobody's");
    age(unknownLegacy);

    // Each sees only its own orphan.
    expect((await doctor(a)).orphan_files.map((file) => file.asset_id)).toEqual([orphanId(1)]);
    expect((await doctor(b)).orphan_files.map((file) => file.asset_id)).toEqual([orphanId(2)]);

    // Each start-up sweep removes its own orphan, and nothing of the other's.
    await restartSwept(b);
    await restartSwept(a);
    expect(existsSync(fileOf(a, orphanId(1)))).toBe(false);
    expect(existsSync(fileOf(b, orphanId(2)))).toBe(false);
    expect(existsSync(fileOf(a))).toBe(true);
    expect(existsSync(fileOf(b))).toBe(true);
    expect(existsSync(unknownLegacy)).toBe(true);
    expect(await served(a, "lite.txt")).toBe("bytes of lite.txt");
    expect(await served(a, "legacy.txt")).toBe("bytes of legacy.txt");
    expect(await served(b, "pg.txt")).toBe("bytes of pg.txt");

    for (const side of [a, b]) expect(await doctor(side)).toEqual({ orphan_files: [], missing_files: [] });

    // A backup takes its installation's files only: the SQLite one its two (one of the legacy layout).
    const counts = [];
    for (const side of [a, b]) {
      const out = join(dataDir, `${side.installation}.tar.gz`);
      const backup = await cms(side.server, ["backup", "--out", out, "--json"]);
      expect(backup.code, backup.stderr).toBe(0);
      counts.push(JSON.parse(backup.stdout).assets);
    }
    expect(counts).toEqual([2, 1]);
  });
});
