// Settings (docs/configuration.md): every variable's default, and a wrong value refused with one line that
// names the variable, says what it must be and quotes what it got (a URL that may hold a password by its
// scheme only). test/setup-errors.test.ts checks the same line reaches the operator from the real server.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { queryCountingEnabled } from "../src/db/query-count.ts";
import { loadSettingsFile } from "../src/settings-file.ts";
import { builtOrSource } from "./helpers/server.ts";

const refusal = (env: NodeJS.ProcessEnv) => () => loadConfig(env);

describe("loadConfig", () => {
  it("answers the defaults when nothing is set, and for blank values", () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      databaseUrl: undefined,
      sqliteSynchronous: "full",
      jsonBodyLimit: 2 * 1024 * 1024,
      uploadLimit: 25 * 1024 * 1024,
      rateLimitPerMinute: 0,
      anonymousRateLimitPerMinute: 600,
      redisUrl: undefined,
      redisPrefix: "cms:rate:",
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      trustProxy: false,
      readCacheBytes: 32 * 1024 * 1024,
      lookupCacheBytes: 8 * 1024 * 1024,
      outboundAllowPrivate: false,
      history: { revisionsKeep: 100, revisionsKeepDays: 30, trashKeepDays: 30, previewLinkTtlSeconds: 3600 },
      siteCache: { sMaxAge: 60, staleWhileRevalidate: 300 },
      webhooks: { retryBaseMs: 10_000, maxAttempts: 8, timeoutMs: 10_000, pollMs: 1_000, logKeepDays: 30 },
      mail: {
        url: undefined,
        from: "Content Management Service <cms@localhost>",
        retryDelayMs: 1000,
        retryMaxDelayMs: 3_600_000,
        attempts: 30,
      },
    });
    expect(defaults.dataDir).toMatch(/\/data$/);
    expect(loadConfig({ PORT: " ", READ_CACHE_MB: "", SMTP_URL: "  ", TRUST_PROXY: "" })).toEqual(defaults);
  });

  it("reads each kind of value", () => {
    const config = loadConfig({
      PORT: "8080",
      DATABASE_URL: "postgresql://cms:secret@db.test/cms",
      TRUST_PROXY: "1",
      OUTBOUND_ALLOW_PRIVATE: "true",
      READ_CACHE_MB: "0",
      SMTP_URL: " smtps://user:pass@mail.test:465 ",
      SMTP_FROM: " Acme <cms@acme.test> ",
      REDIS_URL: "redis://127.0.0.1:6379",
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: "postgresql://cms:secret@db.test/cms",
      trustProxy: true,
      outboundAllowPrivate: true,
      readCacheBytes: 0,
      redisUrl: "redis://127.0.0.1:6379",
      mail: { url: "smtps://user:pass@mail.test:465", from: "Acme <cms@acme.test>" },
    });
    expect(loadConfig({ DATABASE_URL: "file:/tmp/x.db" }).databaseUrl).toBe("file:/tmp/x.db");
    expect(loadConfig({ SQLITE_SYNCHRONOUS: " Normal " }).sqliteSynchronous).toBe("normal");
    expect(loadConfig({}).sqliteSynchronous).toBe("full");
    expect(loadConfig({ SITE_S_MAXAGE: "0", SITE_STALE_WHILE_REVALIDATE: "86400" }).siteCache).toEqual({
      sMaxAge: 0,
      staleWhileRevalidate: 86400,
    });
    expect(() => loadConfig({ SITE_S_MAXAGE: "-1" })).toThrow(/SITE_S_MAXAGE/);
  });

  it("names the variable, the rule and the value it got", () => {
    expect(refusal({ PORT: "abc" })).toThrow(/^PORT must be a whole number from 0 to 65535 \(got "abc"\)$/);
    expect(refusal({ PORT: "65536" })).toThrow('PORT must be a whole number from 0 to 65535 (got "65536")');
    expect(refusal({ READ_CACHE_MB: "1.5" })).toThrow(
      'READ_CACHE_MB must be a whole number >= 0 (got "1.5")',
    );
    expect(refusal({ WEBHOOK_POLL_MS: "5" })).toThrow(
      'WEBHOOK_POLL_MS must be a whole number >= 10 (got "5")',
    );
    expect(refusal({ CMS_UPLOAD_LIMIT: "-1" })).toThrow(
      'CMS_UPLOAD_LIMIT must be a whole number from 1 to 2147483647 (got "-1")',
    );
    expect(refusal({ TRUST_PROXY: "yes" })).toThrow('TRUST_PROXY must be true or false (got "yes")');
    expect(refusal({ SQLITE_SYNCHRONOUS: "off" })).toThrow(
      'SQLITE_SYNCHRONOUS must be full or normal (got "off")',
    );
    expect(refusal({ SMTP_RETRY_DELAY_MS: "0" })).toThrow("SMTP_RETRY_DELAY_MS must be a whole number >= 1");
  });

  it("names every wrong variable in one line", () => {
    expect(refusal({ PORT: "http", OUTBOUND_ALLOW_PRIVATE: "maybe", SMTP_FROM: "kept" })).toThrow(
      /^PORT must be .*; OUTBOUND_ALLOW_PRIVATE must be true or false \(got "maybe"\)$/,
    );
  });

  it("quotes a URL that may hold a password by its scheme only", () => {
    const wrong = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    const database = wrong({ DATABASE_URL: "mysql://cms:secret@localhost/cms" });
    expect(database).toBe(
      'DATABASE_URL must be a postgresql:// URL (got "mysql:…"); leave it unset for the embedded database under CMS_DATA_DIR',
    );
    const mail = wrong({ SMTP_URL: "http://user:secret@mail.test" });
    expect(mail).toBe('SMTP_URL must be an smtp:// or smtps:// URL (got "http:…")');
    expect(wrong({ DATABASE_URL: "cms:secret@localhost" })).toContain('(got "cms:…")');
    expect(wrong({ DATABASE_URL: "//secret@localhost" })).toContain("(got no scheme)");
  });
});

describe("CMS_COUNT_QUERIES", () => {
  it("is on for 1 only", () => {
    expect(queryCountingEnabled({ CMS_COUNT_QUERIES: "1" })).toBe(true);
    for (const value of [undefined, "", "0", "true"])
      expect(queryCountingEnabled({ CMS_COUNT_QUERIES: value })).toBe(false);
  });
});

describe("the settings file .env", () => {
  const folder = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), "cms-dotenv-"));
    writeFileSync(join(dir, ".env"), text);
    return dir;
  };
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it("adds its variables under the real ones: a variable set in the environment, even empty, keeps its value", () => {
    const dir = folder(
      '# the server\'s settings\nDATABASE_URL="postgresql://cms:secret@db.test/cms"\nPORT=8080\nHOST=127.0.0.1\nexport READ_CACHE_MB=4\n',
    );
    made.push(dir);
    const env: NodeJS.ProcessEnv = { PORT: "9090", HOST: "" };
    expect(loadSettingsFile(dir, env)).toEqual({
      path: join(dir, ".env"),
      names: ["DATABASE_URL", "READ_CACHE_MB"],
    });
    expect(env).toEqual({
      PORT: "9090",
      HOST: "",
      DATABASE_URL: "postgresql://cms:secret@db.test/cms",
      READ_CACHE_MB: "4",
    });
    expect(loadConfig(env)).toMatchObject({ port: 9090, databaseUrl: "postgresql://cms:secret@db.test/cms" });
  });

  it("is optional, and one that cannot be read is a setup error naming it", () => {
    const empty = mkdtempSync(join(tmpdir(), "cms-dotenv-"));
    made.push(empty);
    expect(loadSettingsFile(empty, {})).toBeUndefined();
    mkdirSync(join(empty, ".env"));
    expect(() => loadSettingsFile(empty, {})).toThrow(
      `cannot read the settings file ${join(empty, ".env")} (illegal operation on a directory)`,
    );
  });

  it("is read by the server from its working directory", async () => {
    const dir = folder("SQLITE_SYNCHRONOUS=sometimes\n");
    made.push(dir);
    // Harmless if .env were not read: a server on a free port of the loopback, stopped below.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      CMS_DATA_DIR: join(dir, "data"),
    };
    delete env.SQLITE_SYNCHRONOUS;
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, builtOrSource("main"), {
      cwd: dir,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      child.on("exit", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(stderr.trim()).toBe(
      `cms: SQLITE_SYNCHRONOUS must be full or normal (got "sometimes") (SQLITE_SYNCHRONOUS set in ${join(dir, ".env")})`,
    );
    expect(code).toBe(1);
  }, 30_000);
});
