// The README's walk-through, run as written: every shell block from "Walk-through" up to
// "Running it", in one bash session, against a server at default settings (rate limits included), with
// only the address changed. It fails when a command of the README stops working, or when the bulk
// import meets a 429.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./helpers/server.ts";

const root = new URL("..", import.meta.url).pathname;

/** The shell blocks of the README between two headings, in order. */
function shellBlocks(from: string, to: string): string[] {
  const readme = readFileSync(`${root}README.md`, "utf8");
  const part = readme.slice(readme.indexOf(from), readme.indexOf(to));
  return [...part.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-o", "pipefail", "-c", script], { cwd: root, env });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, out, err }));
  });
}

let server: TestServer;
let run: { code: number; out: string; err: string };

beforeAll(async () => {
  // An empty value is the default: the walk-through runs at the settings a new user gets.
  server = await startServer({ RATE_LIMIT_PER_MINUTE: "", RATE_LIMIT_ANONYMOUS_PER_MINUTE: "" });
  const blocks = shellBlocks("## Walk-through", "## Running it");
  const script = blocks.join("\n").replaceAll("http://localhost:3000", server.url);
  run = await bash(script, { ...server.env, PATH: process.env.PATH });
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe("the README walk-through", () => {
  it("runs as written", () => {
    expect(run.code, run.err).toBe(0);
    expect(run.err).not.toMatch(/\n\s+at |error/i);
  });

  it("creates the blog and reads it back", () => {
    expect(run.out).toContain('"content_path": "/blog/hello-world"');
    expect(run.out).toMatch(/"message": ?"must be one of news, guides"/);
    // GraphQL: the news post rated 4.5 and the menu.
    expect(run.out).toMatch(/"title": "Hello, world"[\s\S]*"rating": 4\.5/);
  });

  it("renders the starter theme's pages and its contact form", () => {
    expect(run.out).toContain("<h1>Welcome to Acme</h1>");
    expect(run.out).toContain('<h2><a href="/blog/hello-world">Hello, world</a>');
    expect(run.out).toContain("<h1>Hello, world</h1>");
    expect(run.out).toMatch(/<label for="[^"]+">Email/);
  });

  it("keeps an entry's revisions and makes a preview link on the account's site", () => {
    expect(run.out).toContain("[2,1]");
    expect(run.out).toMatch(/^http:\/\/acme\.test:\d+\/cms\/preview\/\S+$/m);
  });

  it("imports 3,000 entries at full speed without a 429", () => {
    expect(run.out).toMatch(/^\s*3000 201$/m);
    expect(run.out).not.toMatch(/^\s*\d+ 429$/m);
  });
});

describe("the README's opening", () => {
  const readme = readFileSync(`${root}README.md`, "utf8");
  const opening = readme.slice(0, readme.indexOf("\n## "));

  it("starts with the two commands that work on a fresh machine: start the service, run the tests", () => {
    const blocks = [...opening.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.slice(0, 2)).toEqual(["npm ci && npm start\n", "npm ci && npm run test:all\n"]);
    expect(opening.indexOf("npm ci && npm start")).toBeLessThan(200);
  });

  it("says what the test command installs, and that installing needs root", () => {
    const services = readFileSync(`${root}scripts/test-services.sh`, "utf8");
    const installed = [...services.matchAll(/^\s*apt_install ("[^"]+"|\S+)/gm)].map((match) =>
      (match[1] ?? "").replaceAll('"', "").replace("$tool", ""),
    );
    expect(installed).toEqual(expect.arrayContaining(["PostgreSQL", "Redis", "Chromium"]));
    for (const what of [...installed.filter(Boolean), "curl", "jq"]) expect(opening).toContain(what);
    expect(opening).toContain("scripts/test-services.sh");
    expect(opening).toMatch(/needs root/);
    expect(opening).toMatch(/each even when an earlier one failed/);
  });
});
