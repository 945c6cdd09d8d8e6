// Per-client rate limiting: a valid API token is not limited by default, and limited by
// RATE_LIMIT_PER_MINUTE when set (REST and GraphQL together); requests without a valid token (none,
// made-up, revoked) and site form posts are limited per client IP by RATE_LIMIT_ANONYMOUS_PER_MINUTE
// (600 by default). Past a budget: 429 with Retry-After, RateLimit-* headers and the documented error
// body. Counted in memory, or in Redis (REDIS_URL) shared by every server process using it; Redis down
// lets requests through with a logged warning.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryStore } from "../src/rate-limit/window.ts";
import { type ApiResponse, api, request } from "./helpers/api.ts";
import { expectError, expectErrorBody } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

/** The per-token budget of the servers that set one; the per-address budget is smaller, to tell them apart. */
const LIMIT = 5;
const ANONYMOUS_LIMIT = 3;
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const servers: TestServer[] = [];

async function serve(env: NodeJS.ProcessEnv): Promise<TestServer> {
  const server = await startServer(env);
  servers.push(server);
  return server;
}
afterAll(() => Promise.all(servers.map((server) => server.stop())));

function expectTooMany(response: ApiResponse, limit = LIMIT): void {
  expectError(response, 429);
  expect(response.body.error).toMatch(/too many requests/i);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get("ratelimit-limit")).toBe(String(limit));
  expect(response.headers.get("ratelimit-remaining")).toBe("0");
}

function graphql(server: TestServer, token: string | undefined): Promise<ApiResponse> {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ query: "{ __typename }" }),
  });
}

/** A request on the public site (Node's fetch will not send a Host header). */
function siteRequest(
  server: TestServer,
  method: string,
  path: string,
  host: string,
): Promise<{ status: number }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path, method, headers: { host } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Runs `count` requests, `concurrency` at a time; their answers in order. */
async function inParallel<T>(count: number, concurrency: number, send: (i: number) => Promise<T>) {
  const answers: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      answers[i] = await send(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

const madeUpToken = () => `cms_${randomBytes(32).toString("base64url")}`;

/** A GET of the account's collections with `token` (none when undefined). */
function collectionsWith(server: TestServer, account: TestAccount, token?: string) {
  return request(`${server.url}/v1/accounts/${account.account_id}/collections`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

function statusCounts(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe("at default settings", () => {
  let server: TestServer;
  let account: TestAccount;
  beforeAll(async () => {
    // Empty values are the defaults (the test helper otherwise turns limiting off).
    server = await serve({ RATE_LIMIT_PER_MINUTE: "", RATE_LIMIT_ANONYMOUS_PER_MINUTE: "" });
    account = await createAccount(server, "Owner");
  });

  it("does not limit a valid token: 700 requests in well under a minute, 8 at a time, all answered", async () => {
    const owner = api(server, account);
    const answers = await inParallel(700, 8, () => owner.get("/collections"));
    expect(statusCounts(answers)).toEqual({ 200: 700 });
    expect(answers.at(-1)?.body).toMatchObject({ data: [] });
    // No budget, so none is announced.
    expect(answers.at(-1)?.headers.get("ratelimit-limit")).toBeNull();
  });

  it("limits an address to 600 requests a minute without a valid token, bad tokens and form posts included", async () => {
    const answers = await inParallel(600, 8, (i) =>
      collectionsWith(server, account, i % 2 ? madeUpToken() : undefined),
    );
    expect(statusCounts(answers)).toEqual({ 401: 600 });
    expectTooMany(await collectionsWith(server, account), 600);
    expectTooMany(await collectionsWith(server, account, madeUpToken()), 600);
    expect((await siteRequest(server, "POST", "/cms/contact/submit", account.domain)).status).toBe(429);
    // The owner's token is still served from the same address.
    const owner = await api(server, account).get("/collections");
    expect(owner.status, owner.text).toBe(200);
    expect(owner.body).toMatchObject({ data: [] });
  });
});

describe("in memory", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve({
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: String(ANONYMOUS_LIMIT),
    });
  });

  it("answers 429 with Retry-After and the error body past the token's budget; other tokens are unaffected", async () => {
    const [first, second] = await Promise.all([createAccount(server, "A"), createAccount(server, "B")]);
    const a = api(server, first);
    const b = api(server, second);
    for (let i = 0; i < LIMIT; i++) {
      const allowed = await a.get("/collections");
      expect(allowed.status).toBe(200);
      // Allowed answers tell the client its budget.
      expect(allowed.headers.get("ratelimit-limit")).toBe(String(LIMIT));
      expect(allowed.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1 - i));
      expect(Number(allowed.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    }
    expectTooMany(await a.get("/collections"));
    expectTooMany(await a.post("/collections", { collection: { title: "Blocked" } }));
    const other = await b.get("/collections");
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ data: [] });
  });

  it("counts REST and GraphQL against one budget per token, and answers GraphQL's 429 with both error shapes", async () => {
    const account = await createAccount(server, "Mixed");
    const rest = api(server, account);
    for (let i = 0; i < 3; i++) expect((await rest.get("/collections")).status).toBe(200);
    for (let i = 0; i < LIMIT - 3; i++) {
      const answer = await graphql(server, account.token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ data: { __typename: "Query" } });
    }
    const refused = await graphql(server, account.token);
    expectErrorBody(refused, 429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.body.errors).toEqual([
      { message: refused.body.error, extensions: { code: "RATE_LIMITED" } },
    ]);
    expectTooMany(await rest.get("/collections"));
  });

  it("limits requests without a valid token by client IP, made-up and revoked tokens included", async () => {
    const [account, revoked] = await Promise.all([
      createAccount(server, "Anonymous"),
      createAccount(server, "Revoked"),
    ]);
    const revoke = await cms(server, ["token", "revoke", "--token", revoked.token]);
    expect(revoke.code, revoke.stderr).toBe(0);
    const statuses = [
      (await collectionsWith(server, account, madeUpToken())).status,
      (await collectionsWith(server, revoked, revoked.token)).status,
      (await collectionsWith(server, account)).status,
    ];
    expect(statuses).toEqual(Array(ANONYMOUS_LIMIT).fill(401));
    expectTooMany(await collectionsWith(server, account), ANONYMOUS_LIMIT);
    expectTooMany(await collectionsWith(server, account, madeUpToken()), ANONYMOUS_LIMIT);
    // The valid token keeps its own budget.
    expect((await api(server, account).get("/collections")).status).toBe(200);
    // Form posts on the site count against the same IP budget; pages and assets are not limited.
    const onSite = (method: string, path: string) =>
      siteRequest(server, method, path, account.domain).then((answer) => answer.status);
    expect(await onSite("POST", "/cms/contact/submit")).toBe(429);
    expect(await onSite("GET", "/")).not.toBe(429);
    expect(await onSite("GET", "/assets/none.png")).toBe(404);
  });

  it("leaves health checks unlimited", async () => {
    for (let i = 0; i < LIMIT * 2; i++) expect((await request(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("with only an address budget", () => {
  it("leaves a valid token unlimited while the address without a token is limited", async () => {
    const server = await serve({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: String(ANONYMOUS_LIMIT) });
    const account = await createAccount(server, "Importer");
    const owner = api(server, account);
    const created = await inParallel(40, 8, (i) =>
      owner.post("/collections", { name: `Import ${i}`, handle: `import-${i}`, routing: `i${i}/:handle` }),
    );
    expect(statusCounts(created), created[0]?.text).toEqual({ 201: 40 });
    expect(created[0]?.headers.get("ratelimit-limit")).toBeNull();
    const anonymous = await inParallel(ANONYMOUS_LIMIT + 4, 4, () => collectionsWith(server, account));
    expect(statusCounts(anonymous)).toEqual({ 401: ANONYMOUS_LIMIT, 429: 4 });
    const list = await owner.get("/collections?page=2");
    expect(list.status, list.text).toBe(200);
    expect(list.body.pagination).toMatchObject({ total: 40 });
  });
});

describe("the in-memory window", () => {
  it("starts a new count once the minute that began with the first request has passed", async () => {
    let now = 1_000;
    const store = createMemoryStore(() => now);
    expect(await store.hit("k", 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    now += 59_000;
    expect(await store.hit("k", 60_000)).toEqual({ count: 2, resetInMs: 1_000 });
    expect(await store.hit("other", 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    now += 1_000;
    expect(await store.hit("k", 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
  });
});

describe("in Redis", () => {
  it("shares one token's budget between two server processes", async () => {
    const env = {
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      REDIS_URL: redisUrl,
      RATE_LIMIT_REDIS_PREFIX: `cms-test:${randomBytes(6).toString("hex")}:`,
    };
    const first = await serve(env);
    const second = await first.twin(env);
    servers.push(second);
    const account = await createAccount(first, "Shared");
    const viaFirst = api(first, account);
    const viaSecond = api(second, account);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++)
      statuses.push((await (i % 2 ? viaSecond : viaFirst).get("/collections")).status);
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    expectTooMany(await viaFirst.get("/collections"));
    expectTooMany(await viaSecond.get("/collections"));
    // Concurrent requests on both processes are counted atomically: none gets through.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? viaSecond : viaFirst).get("/collections")),
    );
    expect(burst.map((response) => response.status)).toEqual(Array(10).fill(429));
  });

  it("counts a concurrent burst exactly: LIMIT answers, the rest 429", async () => {
    const server = await serve({
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      REDIS_URL: redisUrl,
      RATE_LIMIT_REDIS_PREFIX: `cms-test:${randomBytes(6).toString("hex")}:`,
    });
    const client = api(server, await createAccount(server, "Burst"));
    const burst = await Promise.all(Array.from({ length: 20 }, () => client.get("/collections")));
    const statuses = burst.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(20 - LIMIT).fill(429)]);
  });

  it("lets requests through with a logged warning when Redis cannot be reached", async () => {
    const server = await serve({ RATE_LIMIT_PER_MINUTE: "1", REDIS_URL: "redis://127.0.0.1:1" });
    const client = api(server, await createAccount(server, "Open"));
    for (let i = 0; i < 4; i++) {
      const response = await client.get("/collections");
      expect(response.status, response.text).toBe(200);
    }
    const warnings = server.output.filter((line) => /"level":"warn".*rate limiter/.test(line));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    // Logged once per outage, not once per request.
    expect(warnings.length).toBeLessThanOrEqual(2);
  });
});
