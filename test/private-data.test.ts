// Backups and the data directory are private, and no secret reaches the logs: the data directory is 0700
// and the embedded database's files 0600 (an installation made before is closed at its next start),
// `cms backup` writes its archive 0600, a preview link's token never appears in the request log (however
// the path is spelled), and `cms preview-key rotate` ends every outstanding preview link in the running
// server at once.
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
const work = mkdtempSync(join(tmpdir(), "cms-private-"));

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
  client = api(server, account);
  await expectCreated(
    client.post("/templates", { template: { handle: "post", html: "<h1>{{ title }}</h1>" } }),
  );
  await expectCreated(
    client.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: "blog/:handle",
      template_handle: "post",
      blueprint: { fields: [] },
    }),
  );
  await expectCreated(
    client.post("/collections/posts/entries", { handle: "draft", title: "Secret draft", published: false }),
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const dataDir = () => String(server.env.CMS_DATA_DIR);

async function previewLink(): Promise<{ path: string; token: string }> {
  const made = await client.post("/collections/posts/entries/draft/preview");
  expect(made.status, made.text).toBe(200);
  const path = new URL(made.body.url).pathname;
  return { path, token: path.split("/").pop() ?? "" };
}

describe("the data directory", () => {
  it("is its owner's only, and the embedded database's files too, also when made before", async () => {
    const databaseFiles = () =>
      usesPostgres ? [] : ["cms.db", "cms.db-wal", "cms.db-shm"].map((name) => join(dataDir(), name));
    const expectPrivate = () => {
      expect(modeOf(dataDir()).toString(8)).toBe("700");
      expect(modeOf(join(dataDir(), "assets")).toString(8)).toBe("700");
      for (const file of databaseFiles())
        if (existsSync(file)) expect(modeOf(file).toString(8), file).toBe("600");
    };
    if (!usesPostgres) expect(existsSync(join(dataDir(), "cms.db"))).toBe(true);
    expectPrivate();

    // An installation from before: the umask's usual modes, closed at the next start.
    chmodSync(dataDir(), 0o755);
    for (const file of databaseFiles()) if (existsSync(file)) chmodSync(file, 0o644);
    server = await server.restart();
    client = api(server, account);
    expectPrivate();
  });
});

describe("cms backup", () => {
  it("writes an archive only its owner can read", async () => {
    const out = join(work, "backup.tar.gz");
    const backup = await cms(server, ["backup", "--out", out, "--json"]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ file: out });
    expect(modeOf(out).toString(8)).toBe("600");
  });
});

describe("a preview link's token", () => {
  it("never appears in the request log, however the path is spelled", async () => {
    const { path, token } = await previewLink();
    const spellings = [
      path,
      path.replaceAll("/", "\\").replace(/^\\/, "/"),
      path.replace("/cms/", "/cms/./"),
    ];
    for (const spelling of spellings) {
      const page = await siteGet(server, spelling, account.domain);
      expect(page.status, spelling).toBe(200);
      expect(page.text).toContain("Secret draft");
    }
    await expect
      .poll(() => server.output.filter((line) => line.includes('"path":"/cms/preview/[redacted]"')).length)
      .toBe(spellings.length);
    expect(server.output.filter((line) => line.includes(token))).toEqual([]);
    expect(server.output.filter((line) => line.includes(token.split(".").pop() ?? token))).toEqual([]);
  });
});

describe("cms preview-key rotate", () => {
  it("ends every outstanding link in the running server at once; links made after work", async () => {
    const before = await previewLink();
    expect((await siteGet(server, before.path, account.domain)).status).toBe(200);

    const rotated = await cms(server, ["preview-key", "rotate", "--json"]);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toEqual({ rotated: true });
    expect(rotated.stderr).toMatch(/^cms: wrote to /m);

    const refused = await siteGet(server, before.path, account.domain);
    expect(refused.status).toBe(404);
    expect(refused.text).toBe("Not found\n");
    const after = await previewLink();
    expect(after.token).not.toBe(before.token);
    const page = await siteGet(server, after.path, account.domain);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Secret draft");
  });
});
