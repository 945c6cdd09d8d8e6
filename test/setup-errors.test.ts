// Setup mistakes (decisions.md "Running the service"): the real server, started with one bad setting,
// exits non-zero with exactly one line on stderr naming the setting (and the host or directory), no
// stack, and without doing anything on the wrong database.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers/api.ts";
import { createAccount } from "./helpers/cli.ts";
import { builtOrSource, postgresUrl, startServer, usesPostgres } from "./helpers/server.ts";

const root = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "cms-setup-"));
const aFile = join(dir, "a-file");
writeFileSync(aFile, "not a directory");

interface Exit {
  code: number | null;
  stderr: string;
  dataDir: string;
}

/** Starts the server as test/helpers/server.ts does (this run's build), with `env` over a fresh data directory, until it exits. */
function startWith(env: NodeJS.ProcessEnv): Promise<Exit> {
  const dataDir = mkdtempSync(join(dir, "data-"));
  const full: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    CMS_DATA_DIR: dataDir,
    ...env,
  };
  delete full.NODE_OPTIONS;
  if (!env.DATABASE_URL) delete full.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, builtOrSource("main"), { cwd: root, env: full });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.resume();
    // A server that starts despite the mistake is stopped, and then fails the code assertion.
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, dataDir });
    });
  });
}

function expectOneLine(exit: Exit, ...names: string[]): void {
  expect(exit.code, exit.stderr).not.toBe(0);
  expect(exit.code, exit.stderr).not.toBeNull();
  expect(exit.stderr).not.toMatch(/\n\s+at /);
  const lines = exit.stderr.split("\n").filter((line) => line.trim() !== "");
  expect(lines, exit.stderr).toHaveLength(1);
  for (const name of names) expect(lines[0]).toContain(name);
}

const pgHost = new URL(postgresUrl).host;
const missingDatabase = Object.assign(new URL(postgresUrl), { pathname: "/cms_setup_no_such_db" }).toString();
const exits: Record<string, Exit> = {};
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
  const planned: Record<string, NodeJS.ProcessEnv> = {
    mysql: { DATABASE_URL: "mysql://cms:secret@localhost/cms" },
    unreachable: { DATABASE_URL: "postgresql://postgres:postgres@127.0.0.1:1/cms" },
    unknownHost: { DATABASE_URL: "postgresql://postgres:postgres@no-such-host.invalid/cms" },
    portInUse: { PORT: String(busyPort) },
    dataDirIsFile: { CMS_DATA_DIR: aFile },
    dataDirUnderFile: { CMS_DATA_DIR: join(aFile, "data"), DATABASE_URL: missingDatabase },
    badPort: { PORT: "http" },
    badUploadLimit: { CMS_UPLOAD_LIMIT: "-1" },
    badSmtp: { SMTP_URL: "http://mail.test" },
    ...(usesPostgres ? { missingDatabase: { DATABASE_URL: missingDatabase } } : {}),
  };
  const entries = Object.entries(planned);
  // Three at a time, as the CLI tests do: each start costs about a second of a shared CPU.
  for (let i = 0; i < entries.length; i += 3) {
    const batch = entries.slice(i, i + 3);
    const results = await Promise.all(batch.map(([, env]) => startWith(env)));
    for (const [index, [name]] of batch.entries()) exits[name] = results[index] as Exit;
  }
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => busy?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("DATABASE_URL", () => {
  it("refuses a URL that is not PostgreSQL, without creating an SQLite file named after it", () => {
    const exit = exits.mysql as Exit;
    expectOneLine(exit, "DATABASE_URL", '"mysql:…"');
    expect(exit.stderr).not.toContain("secret");
    expect(existsSync(join(root, "mysql:"))).toBe(false);
    expect(readdirSync(exit.dataDir)).toEqual([]);
  });

  it("names the host and port of a PostgreSQL server that refuses connections", () => {
    expectOneLine(exits.unreachable as Exit, "DATABASE_URL", "127.0.0.1:1", "connection refused");
  });

  it("names a host that does not resolve", () => {
    expectOneLine(exits.unknownHost as Exit, "DATABASE_URL", "no-such-host.invalid", "host not found");
  });

  it.runIf(usesPostgres)("names the missing database and its server", () => {
    expectOneLine(exits.missingDatabase as Exit, "DATABASE_URL", pgHost, '"cms_setup_no_such_db"');
  });

  it.runIf(!usesPostgres)("still takes file:PATH for an SQLite file at PATH", async () => {
    const file = join(dir, "chosen.db");
    const server = await startServer({ DATABASE_URL: `file:${file}` });
    try {
      expect(existsSync(file)).toBe(true);
      const account = await createAccount(server);
      expect((await api(server, account).get("/collections")).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("PORT and CMS_DATA_DIR", () => {
  it("names PORT when the port is in use", () => {
    expectOneLine(exits.portInUse as Exit, "PORT", String(busyPort), "already in use");
  });

  it("names CMS_DATA_DIR and the directory when it cannot be written, on either database", () => {
    expectOneLine(exits.dataDirIsFile as Exit, "CMS_DATA_DIR", aFile);
    expectOneLine(exits.dataDirUnderFile as Exit, "CMS_DATA_DIR", join(aFile, "data"));
  });
});

describe("other settings", () => {
  it("names the setting whose value is invalid", () => {
    for (const [name, setting] of [
      ["badPort", "PORT"],
      ["badUploadLimit", "CMS_UPLOAD_LIMIT"],
      ["badSmtp", "SMTP_URL"],
    ] as const) {
      const exit = exits[name] as Exit;
      expectOneLine(exit, setting);
      // Stopped before touching the database.
      expect(readdirSync(exit.dataDir)).toEqual([]);
    }
  });
});
