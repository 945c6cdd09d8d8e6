// Starts the real server as a child process on a fresh database: the embedded SQLite by default, a new
// PostgreSQL database when TEST_DATABASE=postgres (server from TEST_POSTGRES_URL).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface TestServer {
  url: string;
  env: NodeJS.ProcessEnv;
  /** Lines the server printed, for assertions on logs. */
  output: string[];
  /** The server process, for signals. */
  child: ChildProcess;
  /** Its exit code, once it exits. */
  exited: Promise<number | null>;
  /** Stops the process and drops its database. */
  stop(): Promise<void>;
  /**
   * Stops this process (SIGTERM, or nothing if it already exited, e.g. after a SIGKILL) and starts a
   * new one on the same database and data directory; the new server's stop() drops them.
   */
  restart(extraEnv?: NodeJS.ProcessEnv): Promise<TestServer>;
  /** A second process on the same database and data directory, running alongside; its stop() keeps them. */
  twin(extraEnv?: NodeJS.ProcessEnv): Promise<TestServer>;
}

const root = new URL("../..", import.meta.url).pathname;
export const usesPostgres = process.env.TEST_DATABASE === "postgres";
export const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Runs one statement on a PostgreSQL database: the server's maintenance database unless told another. */
export async function postgresStatement(sql: string, url = postgresUrl): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database, and a fresh data directory (the embedded database, uploaded files) on both. It starts
 * migrated, a copy of this run's migrated template (migrated-templates.ts) where there is one of its kind,
 * unless `empty` asks for one no migration has touched (a restore's target).
 */
export async function freshDatabase(
  kind: TestDatabaseKind = usesPostgres ? "postgres" : "sqlite",
  { empty = false } = {},
): Promise<{ env: NodeJS.ProcessEnv; drop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "cms-test-"));
  const removeDir = async () => rmSync(dir, { recursive: true, force: true });
  if (kind === "sqlite") {
    const template = process.env.CMS_TEST_SQLITE_TEMPLATE;
    if (template && !empty) copyFileSync(template, join(dir, "cms.db"));
    return { env: { CMS_DATA_DIR: dir }, drop: removeDir };
  }
  const name = `cms_test_${randomBytes(6).toString("hex")}`;
  const template = process.env.CMS_TEST_POSTGRES_TEMPLATE;
  await postgresStatement(`CREATE DATABASE ${name}${template && !empty ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), CMS_DATA_DIR: dir },
    drop: async () => {
      await postgresStatement(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await removeDir();
    },
  };
}

/**
 * Rate limiting is off unless a test asks for it (`startServer({ RATE_LIMIT_PER_MINUTE: "5" })`, an empty
 * value for the default): the suites make thousands of requests, with one token and without a valid one.
 */
export async function startServer(
  extraEnv: NodeJS.ProcessEnv = {},
  options: { database?: TestDatabaseKind } = {},
): Promise<TestServer> {
  return spawnServer(await freshDatabase(options.database), extraEnv);
}

/**
 * A fresh database and data directory no server has used yet (`cms restore` fills them, with `env`);
 * `start` serves them, and that server's stop() drops them.
 */
export async function emptyInstance(): Promise<{
  env: NodeJS.ProcessEnv;
  start(extraEnv?: NodeJS.ProcessEnv): Promise<TestServer>;
  drop(): Promise<void>;
}> {
  const database = await freshDatabase(undefined, { empty: true });
  return {
    env: database.env,
    start: (extraEnv = {}) => spawnServer(database, extraEnv),
    drop: database.drop,
  };
}

/** This run's database (TEST_DATABASE), or the other one for a test that moves data between them. */
export type TestDatabaseKind = "sqlite" | "postgres";

type TestDatabase = Awaited<ReturnType<typeof freshDatabase>>;

async function spawnServer(database: TestDatabase, extraEnv: NodeJS.ProcessEnv): Promise<TestServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...database.env,
    PORT: "0",
    HOST: "127.0.0.1",
    RATE_LIMIT_PER_MINUTE: "0",
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0",
    ...extraEnv,
  };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, builtOrSource("main"), {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.on("exit", () => running.delete(child));
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: a server that never said it listens would outlive the test run.
      child.kill("SIGKILL");
      reject(new Error(`server did not start:\n${output.join("\n")}`));
    }, 30_000);
    // Whole lines only: a chunk may end inside a line, kept until the rest arrives.
    const pending = { stdout: "", stderr: "" };
    const onChunk = (stream: keyof typeof pending) => (chunk: Buffer) => {
      const lines = (pending[stream] + chunk.toString()).split("\n");
      pending[stream] = lines.pop() ?? "";
      for (const line of lines.filter(Boolean)) {
        output.push(line);
        const port = /"msg":"listening".*"port":(\d+)/.exec(line)?.[1];
        if (port) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${port}`);
        }
      }
    };
    child.stdout?.on("data", onChunk("stdout"));
    child.stderr?.on("data", onChunk("stderr"));
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output.join("\n")}`)));
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.on("exit", (code) => resolve(code));
  });
  return {
    url,
    env,
    output,
    child,
    exited,
    async stop() {
      await stopProcess(child);
      await database.drop();
    },
    async restart(nextEnv = extraEnv) {
      await stopProcess(child);
      return spawnServer(database, nextEnv);
    },
    twin(twinEnv = extraEnv) {
      return spawnServer({ ...database, drop: async () => {} }, twinEnv);
    },
  };
}

/** Servers this test process started and that still run: ended with it, whatever the tests did. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * How to run the server (`main`) or the CLI (`cms`): this run's build (test/helpers/build.ts), or the
 * sources through tsx when a test file runs without the global setup.
 */
export function builtOrSource(entry: "main" | "cms"): string[] {
  const built = process.env.CMS_TEST_BUILD;
  if (built) return [join(built, `${entry}.mjs`)];
  return ["--import", "tsx", entry === "main" ? "src/main.ts" : "src/cli/cms.ts"];
}

function stopProcess(child: ChildProcess): Promise<void> {
  // A process killed by a signal has no exit code, only a signal code.
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

/**
 * Everything the server writes back to `text`, sent on a fresh connection, until it closes it (exact
 * bytes). The connection stays open for writing: a half-closed one may be dropped before a slow handler
 * answers, so `text` must make the server close (`Connection: close`, or a request it refuses).
 */
export function rawExchange(server: TestServer, text: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
  });
}
