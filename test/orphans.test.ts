// No orphans: `cms doctor` reports asset files no asset names and assets whose file is
// missing; the server removes orphan files older than an hour in the background (at start, then
// hourly), and keeps recent ones (an upload mid-way) and the files of trashed assets (a restore needs them).
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { api } from "./helpers/api.ts";
import { accountFolder } from "./helpers/asset-files.ts";
import { cms, createAccount } from "./helpers/cli.ts";
import { waitFor } from "./helpers/contact-form.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer | undefined;
afterAll(() => server?.stop());

const orphanId = (n: number) => `acass_${String(n).padStart(26, "0")}`;

describe("orphan asset files", () => {
  it("are reported by cms doctor with rows missing their file, and swept by the server after an hour", {
    timeout: 90_000,
  }, async () => {
    let current = await startServer();
    server = current;
    const account = await createAccount(current);
    const client = api(current, account);
    const upload = async (filename: string) => {
      const created = await client.post("/assets", {
        asset: { filename, data: Buffer.from(`bytes of ${filename}`).toString("base64") },
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    };
    const kept = await upload("kept.txt");
    const lost = await upload("lost.txt");
    const trashed = await upload("trashed.txt");
    const deleted = await client.delete(`/assets/${trashed}`);
    expect(deleted.status, deleted.text).toBeLessThan(300);

    const dir = accountFolder(current, account.account_id);
    const file = (id: string) => join(dir, id);
    rmSync(file(lost));
    mkdirSync(dir, { recursive: true });
    const [old, recent] = [orphanId(1), orphanId(2)];
    writeFileSync(file(old), "left by a crash two hours ago");
    writeFileSync(file(recent), "an upload whose row is on its way");
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(file(old), twoHoursAgo, twoHoursAgo);

    const doctor = await cms(current, ["doctor", "--json"]);
    expect(doctor.code, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout);
    expect(report.orphan_files.map((found: { asset_id: string }) => found.asset_id).sort()).toEqual([
      old,
      recent,
    ]);
    expect(report.missing_files).toEqual([
      { account_id: account.account_id, asset_id: lost, path: "", filename: "lost.txt" },
    ]);
    const text = await cms(current, ["doctor"]);
    expect(text.stdout.trim().split("\n").at(-1)).toBe("2 orphan files, 1 asset without its file");

    // The sweep runs at start: a restarted server removes the old orphan only.
    current = await current.restart();
    server = current;
    const swept = (line: string) => line.includes('"msg":"orphan asset files removed","removed":1');
    await waitFor(() => (current.output.some(swept) ? true : undefined), 20_000);
    expect(existsSync(file(old))).toBe(false);
    expect(existsSync(file(recent))).toBe(true);
    expect(existsSync(file(kept))).toBe(true);
    expect(existsSync(file(trashed))).toBe(true);
  });
});
