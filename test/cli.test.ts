// The operator CLI (decisions.md "Running the service"): accounts and tokens against the running
// server's database. JSON output with --json; errors print one line to stderr and exit non-zero.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, api, request } from "./helpers/api.ts";
import { expectErrorBody } from "./helpers/assertions.ts";
import { type CliResult, cms, type TestAccount } from "./helpers/cli.ts";
import { builtOrSource, startServer, type TestServer, usesPostgres } from "./helpers/server.ts";

let server: TestServer;
let created: CliResult;
let account: TestAccount;
const domain = `${randomBytes(5).toString("hex")}.test`;
/** A data directory the server does not use, for a CLI run that forgot the server's settings. */
const strayDir = mkdtempSync(join(tmpdir(), "cms-cli-stray-"));

function expectOneLineError(result: CliResult) {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).not.toBe(0);
  const lines = result.stderr.split("\n").filter((line) => line.trim() !== "");
  expect(lines, `stderr: ${result.stderr}`).toHaveLength(1);
  expect(lines[0]?.trim().length).toBeGreaterThan(0);
  expect(result.stderr).not.toMatch(/\n\s*at\s/);
}

function parseToken(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  const printed = JSON.parse(result.stdout);
  expect(Object.keys(printed)).toEqual(["token"]);
  expect(typeof printed.token).toBe("string");
  expect(printed.token.length).toBeGreaterThanOrEqual(20);
  return printed.token;
}

/** CLI runs that depend only on the account, made together in beforeAll (each run costs about a second). */
const runs: Record<string, CliResult> = {};

beforeAll(async () => {
  server = await startServer();
  created = await cms(server, ["account", "create", "--name", "Acme", "--domain", domain, "--json"]);
  account = JSON.parse(created.stdout);
  const id = account.account_id;
  const planned: Record<string, string[]> = {
    duplicateDomain: ["account", "create", "--name", "Other", "--domain", domain, "--json"],
    noName: ["account", "create", "--domain", `${randomBytes(5).toString("hex")}.test`, "--json"],
    noDomain: ["account", "create", "--name", "No domain", "--json"],
    token: ["token", "create", "--account", id, "--json"],
    revoked: ["token", "create", "--account", id, "--json"],
    kept: ["token", "create", "--account", id, "--json"],
    read: ["token", "create", "--account", id, "--scope", "read", "--json"],
    unknownAccount: ["token", "create", "--account", "acct_01doesnotexist0000000000000", "--json"],
    unknownScope: ["token", "create", "--account", id, "--scope", "admin", "--json"],
    revokeUnknown: ["token", "revoke", "--token", "cms_not_a_real_token"],
    misspelledScope: ["token", "create", "--account", id, "--scop", "read", "--json"],
    scopeWithoutValue: ["token", "create", "--account", id, "--scope"],
    scopeTakingNextOption: ["token", "create", "--account", id, "--scope", "--json"],
    accountWithoutValue: ["token", "list", "--account"],
    strayArgument: ["account", "list", "everything"],
    textToken: ["token", "create", "--account", id, "--scope", "read"],
    theme: ["theme", "install", "--account", id, "--json"],
  };
  const entries = Object.entries(planned);
  // Three at a time: enough to overlap start-up costs without starving the server on two cores.
  for (let i = 0; i < entries.length; i += 3) {
    const batch = entries.slice(i, i + 3);
    const results = await Promise.all(batch.map(([, args]) => cms(server, args)));
    for (const [index, [name]] of batch.entries()) runs[name] = results[index] as CliResult;
  }
});

afterAll(async () => {
  await server?.stop();
  rmSync(strayDir, { recursive: true, force: true });
});

/** How the CLI names the test server's database. */
function serverDatabase(): string {
  if (!usesPostgres) return `the embedded SQLite database ${join(server.env.CMS_DATA_DIR ?? "", "cms.db")}`;
  const name = new URL(server.env.DATABASE_URL ?? "").pathname.slice(1);
  return `the PostgreSQL database "${name}" at 127.0.0.1:`;
}

describe("account create", () => {
  it("prints exactly {account_id, token, domain} as JSON and exits 0", () => {
    expect(created.code, created.stderr).toBe(0);
    const printed = JSON.parse(created.stdout);
    expect(Object.keys(printed).sort()).toEqual(["account_id", "domain", "token"]);
    expect(printed.account_id).toMatch(/^acct_[a-z0-9]+$/);
    expect(printed.domain).toBe(domain);
    expect(typeof printed.token).toBe("string");
    expect(printed.token.length).toBeGreaterThanOrEqual(20);
    expect(created.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("gives a token that works for requests on the new account", async () => {
    const client = api(server, account);
    expect((await client.get("/collections")).status).toBe(200);
    const collection = await client.post("/collections", {
      name: "Blog",
      handle: "blog",
      routing: "blog/:handle",
    });
    expect(collection.status, collection.text).toBe(201);
    expect((await client.get("/collections/blog")).status).toBe(200);
  });

  it("refuses a domain another account uses, with one line on stderr", async () => {
    const duplicate = runs.duplicateDomain as CliResult;
    expectOneLineError(duplicate);
    expect(duplicate.stdout.trim()).toBe("");
  });

  it("refuses a missing --name or --domain, with one line on stderr", async () => {
    expectOneLineError(runs.noName as CliResult);
    expectOneLineError(runs.noDomain as CliResult);
  });
});

describe("token create", () => {
  it("prints {token}, and the token works for reads and writes", async () => {
    const token = parseToken(runs.token as CliResult);
    expect(token).not.toBe(account.token);
    const client = api(server, account, token);
    expect((await client.get("/collections")).status).toBe(200);
    const blueprint = await client.post("/blueprints", { title: "Page", handle: "page", fields: [] });
    expect(blueprint.status, blueprint.text).toBe(201);
  });

  it("refuses an unknown account with one line on stderr", async () => {
    const result = runs.unknownAccount as CliResult;
    expectOneLineError(result);
    expect(result.stdout.trim()).toBe("");
  });
});

describe("token revoke", () => {
  it("makes the revoked token get 401 while the account's other tokens keep working", async () => {
    const revoked = parseToken(runs.revoked as CliResult);
    const kept = parseToken(runs.kept as CliResult);
    expect(new Set([revoked, kept, account.token]).size).toBe(3);
    for (const token of [revoked, kept, account.token]) {
      expect((await api(server, account, token).get("/collections")).status).toBe(200);
    }

    const result = await cms(server, ["token", "revoke", "--token", revoked]);
    expect(result.code, result.stderr).toBe(0);

    const revokedClient = api(server, account, revoked);
    expectErrorBody(await revokedClient.get("/collections"), 401);
    expectErrorBody(
      await revokedClient.post("/collections", { name: "X", handle: "x", routing: "x/:handle" }),
      401,
    );
    const graphql = await request(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${revoked}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ collections(account_id: "${account.account_id}") { data { handle } } }`,
      }),
    });
    expect(graphql.status).toBe(401);

    for (const token of [kept, account.token]) {
      const client = api(server, account, token);
      expect((await client.get("/collections")).status).toBe(200);
      expect((await client.get("/collections/blog")).status).toBe(200);
    }
    expect((await api(server, account, kept).put("/collections/blog", { name: "Blog (kept)" })).status).toBe(
      200,
    );
  });

  it("refuses an unknown token with one line on stderr", async () => {
    expectOneLineError(runs.revokeUnknown as CliResult);
  });
});

describe("read-scoped tokens", () => {
  it("can GET but gets 403 on POST, PUT, PATCH and DELETE, changing nothing", async () => {
    const writer = api(server, account);
    const setup = await writer.post("/collections", {
      name: "News",
      handle: "news",
      routing: "news/:handle",
      blueprint: { fields: [{ handle: "body", display: "Body", type: "text" }] },
    });
    expect(setup.status, setup.text).toBe(201);
    const entry = await writer.post("/collections/news/entries", {
      handle: "first",
      title: "First",
      body: "one",
    });
    expect(entry.status, entry.text).toBe(201);
    const blueprint = await writer.post("/blueprints", { title: "Free", handle: "free", fields: [] });
    expect(blueprint.status, blueprint.text).toBe(201);

    const token = parseToken(runs.read as CliResult);
    const reader = api(server, account, token);

    for (const path of [
      "/collections",
      "/collections/news",
      `/collections/${setup.body.id}`,
      "/collections/news/entries",
      "/collections/news/entries/first",
      "/blueprints",
      "/blueprints/free",
    ]) {
      const response = await reader.get(path);
      expect(response.status, `GET ${path}: ${response.text}`).toBe(200);
    }
    const before = await Promise.all([
      writer.get("/collections"),
      writer.get("/collections/news/entries/first"),
      writer.get("/blueprints"),
    ]).then((reads) => reads.map((read) => read.body));

    const attempts: Array<[string, () => Promise<ApiResponse>]> = [
      [
        "POST /collections",
        () => reader.post("/collections", { name: "New", handle: "new", routing: "new/:handle" }),
      ],
      [
        "POST /collections (existing handle)",
        () => reader.post("/collections", { name: "Renamed", handle: "news", routing: "news/:handle" }),
      ],
      ["PUT /collections/news", () => reader.put("/collections/news", { name: "Renamed" })],
      ["PATCH /collections/news", () => reader.patch("/collections/news", { name: "Renamed" })],
      ["DELETE /collections/news", () => reader.delete("/collections/news")],
      ["POST entry", () => reader.post("/collections/news/entries", { handle: "second", title: "Second" })],
      ["PUT entry", () => reader.put("/collections/news/entries/first", { title: "Changed" })],
      ["PATCH entry", () => reader.patch("/collections/news/entries/first", { title: "Changed" })],
      ["DELETE entry", () => reader.delete("/collections/news/entries/first")],
      ["POST /blueprints", () => reader.post("/blueprints", { title: "Other", handle: "other", fields: [] })],
      ["PUT /blueprints/free", () => reader.put("/blueprints/free", { title: "Changed" })],
      ["PATCH /blueprints/free", () => reader.patch("/blueprints/free", { title: "Changed" })],
      ["DELETE /blueprints/free", () => reader.delete("/blueprints/free")],
    ];
    const failures: string[] = [];
    for (const [label, attempt] of attempts) {
      const response = await attempt();
      if (response.status !== 403)
        failures.push(`${label}: ${response.status} ${response.text.slice(0, 200)}`);
      else expectErrorBody(response, 403);
    }
    expect(failures).toEqual([]);

    const after = await Promise.all([
      writer.get("/collections"),
      writer.get("/collections/news/entries/first"),
      writer.get("/blueprints"),
    ]).then((reads) => reads.map((read) => read.body));
    expect(after).toEqual(before);
  });

  it("can run GraphQL queries but not mutations", async () => {
    const token = parseToken(runs.read as CliResult);
    const post = (query: string) =>
      request(`${server.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
    const query = await post(
      `{ collections(account_id: "${account.account_id}") { data { handle } pagination { total } } }`,
    );
    expect(query.status, query.text).toBe(200);
    expect(query.body.errors).toBeUndefined();
    expect(query.body.data.collections.data.map((c: { handle: string }) => c.handle)).toContain("blog");

    const mutation = await post(
      `mutation { blueprintCreate(account_id: "${account.account_id}", input: { title: "Sneaky", handle: "sneaky" }) { id } }`,
    );
    expect(mutation.status, mutation.text).toBe(403);
    expect(mutation.body.errors?.[0]?.extensions?.code, mutation.text).toBe("FORBIDDEN");
    expect((await api(server, account).get("/blueprints/sneaky")).status).toBe(404);
  });

  it("refuses an unknown scope with one line on stderr", async () => {
    expectOneLineError(runs.unknownScope as CliResult);
  });
});

describe("command line mistakes", () => {
  it("refuses a misspelled option in one line, naming it, and creates nothing", async () => {
    const result = runs.misspelledScope as CliResult;
    expectOneLineError(result);
    expect(result.stderr).toContain("unknown option --scop for 'token create'");
    expect(result.stdout).toBe("");
  });

  it("refuses an option without its value, also when the next word is another option", () => {
    for (const name of ["scopeWithoutValue", "scopeTakingNextOption"] as const) {
      const result = runs[name] as CliResult;
      expectOneLineError(result);
      expect(result.stderr.trim()).toBe("cms: --scope needs a value");
      expect(result.stdout).toBe("");
    }
    expectOneLineError(runs.accountWithoutValue as CliResult);
    expect((runs.accountWithoutValue as CliResult).stderr.trim()).toBe("cms: --account needs a value");
  });

  it("refuses a word after the command", () => {
    const result = runs.strayArgument as CliResult;
    expectOneLineError(result);
    expect(result.stderr.trim()).toBe("cms: unexpected argument 'everything' after 'account list'");
  });
});

describe("what the CLI says it did", () => {
  it("prints the scope and account of a token it created, and names the database on stderr", () => {
    const result = runs.textToken as CliResult;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(
      new RegExp(`^token cms_\\S{20,} \\(scope read, account ${account.account_id}\\)$`),
    );
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringContaining(`cms: wrote to ${serverDatabase()}`),
    ]);
  });

  it("keeps --json stdout to the JSON, the database line going to stderr", () => {
    expect(created.stderr.trim()).toContain(`cms: wrote to ${serverDatabase()}`);
    expect(created.stderr.trim().split("\n")).toHaveLength(1);
    expect(() => JSON.parse(created.stdout)).not.toThrow();
  });

  it("names the database it looked in when the account is not there (a run without the server's settings)", async () => {
    const stray = await cms(server, ["token", "create", "--account", account.account_id], {
      DATABASE_URL: "",
      CMS_DATA_DIR: strayDir,
    });
    expectOneLineError(stray);
    expect(stray.stderr.trim()).toBe(
      `cms: account ${account.account_id} not found in the embedded SQLite database ${join(strayDir, "cms.db")} (CMS_DATA_DIR; DATABASE_URL is unset)`,
    );
  });
});

describe("the settings file .env", () => {
  /** The CLI run in `dir` with the server's environment but none of its database settings. */
  function cmsIn(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    const bare = { ...server.env, ...env };
    for (const name of databaseSettings) if (!(name in env)) delete bare[name];
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...builtOrSource("cms"), ...args], { cwd: dir, env: bare });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
  }
  const databaseSettings = ["DATABASE_URL", "CMS_DATA_DIR"];
  /** A working directory whose .env holds `lines`. */
  const folderWith = (lines: string[]) => {
    const dir = mkdtempSync(join(strayDir, "cwd-"));
    writeFileSync(join(dir, ".env"), `# the server's settings\n${lines.join("\n")}\n`);
    return dir;
  };
  /** The server's database settings as .env lines, quoted. */
  const serverSettings = () =>
    databaseSettings.flatMap((name) => (server.env[name] ? [`${name}="${server.env[name]}"`] : []));

  it("finds the server's database from a shell without DATABASE_URL, and says so on stderr", async () => {
    const dir = folderWith(serverSettings());
    const made = await cmsIn(dir, [
      "account",
      "create",
      "--name",
      "Dotenv",
      "--domain",
      `${randomBytes(5).toString("hex")}.test`,
      "--json",
    ]);
    expect(made.code, made.stderr).toBe(0);
    const { token } = JSON.parse(made.stdout);
    const source = usesPostgres ? "DATABASE_URL" : "CMS_DATA_DIR";
    expect(made.stderr.trim().split("\n")).toEqual([
      expect.stringContaining(`cms: wrote to ${serverDatabase()}`),
    ]);
    expect(made.stderr).toContain(`(${source} from ${join(dir, ".env")}`);
    // The server knows the token: the CLI wrote to its database.
    const collections = await request(
      `${server.url}/v1/accounts/${JSON.parse(made.stdout).account_id}/collections`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(collections.status, collections.text).toBe(200);
    expect(collections.body.data).toEqual([]);
  });

  it("lets a variable of the real environment win over .env", async () => {
    const dir = folderWith([
      `CMS_DATA_DIR=${join(strayDir, "not-the-server")}`,
      "DATABASE_URL=postgresql://nobody:hunter2@127.0.0.1:1/nowhere",
    ]);
    const real = Object.fromEntries(databaseSettings.map((name) => [name, server.env[name] ?? ""]));
    const listed = await cmsIn(dir, ["account", "list", "--json"], real);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((a: { account_id: string }) => a.account_id)).toContain(
      account.account_id,
    );
    expect(listed.stderr.trim()).toContain(`cms: read from ${serverDatabase()}`);
    expect(listed.stderr).not.toContain(".env");
  });

  it("never prints the password of a DATABASE_URL from .env", async () => {
    const dir = folderWith(["DATABASE_URL=postgresql://nobody:hunter2@127.0.0.1:1/nowhere"]);
    const failed = await cmsIn(dir, ["account", "list"]);
    expectOneLineError(failed);
    expect(failed.stderr).not.toContain("hunter2");
  });

  it("refuses a wrong value in .env with the one line naming it", async () => {
    const dir = folderWith([...serverSettings(), "SQLITE_SYNCHRONOUS=sometimes"]);
    const refused = await cmsIn(dir, ["account", "list"]);
    expectOneLineError(refused);
    expect(refused.stderr.trim()).toMatch(
      /^cms: SQLITE_SYNCHRONOUS must be .+ \(got "sometimes"\) \(SQLITE_SYNCHRONOUS set in .+\/\.env\)$/,
    );
  });
});

describe("migrate", () => {
  it("applies the pending migrations of a new database, then finds none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cms-cli-migrate-"));
    try {
      const fresh = await cms(server, ["migrate", "--json"], { DATABASE_URL: "", CMS_DATA_DIR: dir });
      expect(fresh.code, fresh.stderr).toBe(0);
      const { applied } = JSON.parse(fresh.stdout);
      expect(applied.length).toBeGreaterThan(0);
      expect(applied).toEqual([...applied].sort());
      // The server's database was migrated when it started.
      const again = await cms(server, ["migrate"]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout.trim()).toBe("no pending migrations");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("account list and token list", () => {
  it("lists the accounts with their domain, name and creation time", async () => {
    const result = await cms(server, ["account", "list", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.trim()).toContain(`cms: read from ${serverDatabase()}`);
    const listed = JSON.parse(result.stdout);
    const ours = listed.find((row: { account_id: string }) => row.account_id === account.account_id);
    expect(ours).toEqual({
      account_id: account.account_id,
      name: "Acme",
      domain,
      created_at: expect.any(String),
    });
    expect(Date.parse(ours.created_at)).toBeGreaterThan(Date.now() - 10 * 60_000);
    const text = await cms(server, ["account", "list"]);
    expect(text.stdout).toMatch(
      new RegExp(`^${account.account_id}  ${domain.replace(".", "\\.")}  Acme  created `, "m"),
    );
  });

  it("lists an account's tokens by ID, prefix, scope and dates, never a secret; the misspelled run made none", async () => {
    const result = await cms(server, ["token", "list", "--account", account.account_id, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const tokens = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    for (const token of tokens) {
      expect(Object.keys(token).sort()).toEqual(["created_at", "id", "prefix", "revoked_at", "scope"]);
      expect(token.id).toMatch(/^tok_[a-z0-9]+$/);
      expect(token.prefix).toMatch(/^cms_[\w-]{6}$/);
    }
    // The account's own token, then token, revoked, kept, read and textToken: no token from --scop.
    expect(tokens).toHaveLength(6);
    expect(tokens.filter((token) => token.scope === "read")).toHaveLength(2);
    expect(tokens.filter((token) => token.revoked_at !== null)).toHaveLength(1);
    const text = await cms(server, ["token", "list", "--account", account.account_id]);
    expect(text.stdout.trim().split("\n")).toHaveLength(6);
    const secrets = [
      account.token,
      ...["token", "revoked", "kept", "read"].map((name) => parseToken(runs[name] as CliResult)),
    ];
    // Each token is told apart by its first characters, and by no more of them.
    expect(tokens.map((token) => token.prefix)).toContain(account.token.slice(0, 10));
    expect(text.stdout).toContain(`${account.token.slice(0, 10)}…`);
    for (const output of [result.stdout, text.stdout, result.stderr, text.stderr]) {
      // A token is cms_ and 43 characters; the PostgreSQL test database's name also starts with cms_.
      expect(output).not.toMatch(/cms_[\w-]{40}/);
      for (const secret of secrets) expect(output).not.toContain(secret.slice(4, 20));
    }
  });

  it("revokes a token by the ID the listing shows", async () => {
    const listed = JSON.parse(
      (await cms(server, ["token", "list", "--account", account.account_id, "--json"])).stdout,
    );
    const live = listed.filter((token: { revoked_at: string | null }) => token.revoked_at === null);
    const target = live.at(-1);
    const revoked = await cms(server, ["token", "revoke", "--id", target.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = JSON.parse(
      (await cms(server, ["token", "list", "--account", account.account_id, "--json"])).stdout,
    );
    expect(after.find((token: { id: string }) => token.id === target.id).revoked_at).toEqual(
      expect.any(String),
    );
    expect(await cms(server, ["token", "revoke", "--id", target.id])).toMatchObject({ code: 1 });
  });
});

describe("theme install", () => {
  it("prints the templates it installed, which the account then has", async () => {
    const result = runs.theme as CliResult;
    expect(result.code, result.stderr).toBe(0);
    const { installed } = JSON.parse(result.stdout);
    expect(installed.length).toBeGreaterThan(0);
    const templates = await api(server, account).get("/templates");
    expect(templates.status, templates.text).toBe(200);
    const handles = templates.body.data.map((template: { handle: string }) => template.handle);
    expect(handles).toEqual(expect.arrayContaining(installed));
  });

  /** A theme folder of the test's own: theme.json listing `templates`, and the files given. */
  function themeFolder(templates: unknown[], files: Record<string, string>): string {
    const folder = mkdtempSync(join(strayDir, "theme-"));
    writeFileSync(join(folder, "theme.json"), JSON.stringify({ name: "own", templates }));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), text);
    }
    return folder;
  }

  it("installs a theme from any directory holding a theme.json, by an absolute or a relative path", async () => {
    const folder = themeFolder(
      [
        { handle: "own-layout", kind: "layout", title: "Own layout" },
        { handle: "own/about", kind: "template", title: "About" },
      ],
      {
        "own-layout.liquid": "<main>{{ content_for_layout }}</main>",
        "own/about.liquid": "<h1>{{ title }}</h1>",
      },
    );
    const absolute = await cms(server, [
      "theme",
      "install",
      "--account",
      account.account_id,
      "--path",
      folder,
    ]);
    expect(absolute.code, absolute.stderr).toBe(0);
    expect(absolute.stdout.trim()).toBe(
      `theme ${folder} installed in account ${account.account_id}: own-layout, own/about`,
    );
    const about = await api(server, account).get("/templates/own%2Fabout");
    expect(about.status, about.text).toBe(200);
    expect(about.body).toMatchObject({ kind: "template", title: "About", html: "<h1>{{ title }}</h1>" });

    writeFileSync(join(folder, "own/about.liquid"), "<h2>{{ title }}</h2>");
    const root = new URL("..", import.meta.url).pathname;
    const relativePath = relative(root, folder);
    const again = await cms(server, [
      "theme",
      "install",
      "--account",
      account.account_id,
      "--path",
      relativePath,
      "--json",
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ installed: ["own-layout", "own/about"] });
    expect((await api(server, account).get("/templates/own%2Fabout")).body.html).toBe("<h2>{{ title }}</h2>");
  });

  it("refuses a folder without theme.json, a listed file that is missing, a handle outside the folder and bad Liquid, installing nothing", async () => {
    const install = (folder: string) =>
      cms(server, ["theme", "install", "--account", account.account_id, "--path", folder]);
    const good = { handle: "never-installed", kind: "template", title: "Fine" };
    const goodFile = { "never-installed.liquid": "<p>fine</p>" };

    const empty = mkdtempSync(join(strayDir, "empty-"));
    const noManifest = await install(empty);
    expectOneLineError(noManifest);
    expect(noManifest.stderr).toContain(`cms: no theme.json in ${empty}`);

    const noFolder = await install(join(empty, "nowhere"));
    expectOneLineError(noFolder);
    expect(noFolder.stderr).toContain("no such directory");

    const missing = themeFolder([good, { handle: "gone", kind: "template", title: "Gone" }], goodFile);
    const missingRun = await install(missing);
    expectOneLineError(missingRun);
    expect(missingRun.stderr).toContain("lists 'gone', but gone.liquid is missing");

    const outside = themeFolder([good, { handle: "../escape", kind: "template", title: "Out" }], goodFile);
    writeFileSync(join(outside, "..", "escape.liquid"), "<p>not the theme's</p>");
    const outsideRun = await install(outside);
    expectOneLineError(outsideRun);
    expect(outsideRun.stderr).toContain("'../escape' names a file outside");

    const badKind = themeFolder([{ ...good, kind: "page" }], goodFile);
    const badKindRun = await install(badKind);
    expectOneLineError(badKindRun);
    expect(badKindRun.stderr).toMatch(/theme\.json: templates\.0\.kind /);

    const broken = themeFolder([good, { handle: "broken", kind: "template", title: "Broken" }], {
      ...goodFile,
      "broken.liquid": "<p>\n{% if %}</p>",
    });
    const brokenRun = await install(broken);
    expectOneLineError(brokenRun);
    expect(brokenRun.stderr).toMatch(/^cms: broken\.liquid line 2: .+; nothing was installed$/m);

    const both = await cms(server, [
      "theme",
      "install",
      "--account",
      account.account_id,
      "--name",
      "starter",
      "--path",
      broken,
    ]);
    expectOneLineError(both);
    expect(both.stderr.trim()).toBe("cms: give one of --name or --path");

    const handles = (await api(server, account).get("/templates")).body.data.map(
      (template: { handle: string }) => template.handle,
    );
    expect(handles).not.toContain("never-installed");
    expect(handles).not.toContain("broken");
  });
});
