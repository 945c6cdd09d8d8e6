// How often one address may send a spam-checked form (README "Form posts"): at most 10 times in 10
// minutes, a sliding window counted in memory, or in Redis (REDIS_URL) shared by every server process.
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryEvents, createRedisEvents } from "../src/rate-limit/recent-events.ts";
import { connectRedis } from "../src/rate-limit/redis.ts";
import { api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = () => `cms-test:${randomBytes(6).toString("hex")}:`;
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.stop())));

describe("the sliding window in memory", () => {
  it("admits `limit` events in any window, counts no refused one, and frees a place as the oldest leaves", async () => {
    let now = 0;
    const events = createMemoryEvents(() => now);
    for (const at of [0, 400, 800]) {
      now = at;
      expect(await events.admit("k", 3, 1_000)).toEqual({ allowed: true, retryInMs: 0 });
    }
    now = 900;
    expect(await events.admit("k", 3, 1_000)).toEqual({ allowed: false, retryInMs: 100 });
    expect(await events.admit("other", 3, 1_000)).toEqual({ allowed: true, retryInMs: 0 });
    // A fixed window opened at 0 would admit three more at 1,000; only the event of 0 has left.
    now = 1_000;
    expect(await events.admit("k", 3, 1_000)).toEqual({ allowed: true, retryInMs: 0 });
    expect(await events.admit("k", 3, 1_000)).toEqual({ allowed: false, retryInMs: 400 });
  });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A spam-checked form on a new account's site; `send` posts it through any server of that database. */
async function spamCheckedForm(server: TestServer) {
  const account = await createAccount(server, "Forms");
  const client = api(server, account);
  await expectCreated(
    client.post("/collections", {
      name: "Messages",
      handle: "messages",
      routing: "messages/:handle",
      blueprint: { fields: [{ handle: "name", type: "text", options: { required: true } }] },
    }),
  );
  await expectCreated(
    client.post("/forms", {
      title: "Contact",
      handle: "contact",
      collection_handle: "messages",
      blueprint_handle: "messages",
      spam_check_enabled: true,
    }),
  );
  const send = (via: TestServer, n: number) =>
    siteRequest(via, "/cms/contact/submit", account.domain, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ "fields[name]": `Caller ${n}` }).toString(),
    });
  const saved = async () =>
    (await client.get("/collections/messages/entries")).body.pagination.total as number;
  return { send, saved };
}

function expectRefused(response: { status: number; text: string }): void {
  expect(response.status).toBe(429);
  expect(JSON.parse(response.text)).toMatchObject({ error: "Too many submissions" });
}

describe("in Redis", () => {
  it("keeps the same sliding window, on the Redis server's clock", async () => {
    const link = connectRedis(redisUrl, () => {});
    try {
      const events = createRedisEvents(link, prefix());
      // Until the connection is up, events are counted in this process's memory.
      const ping = { name: "cmsTestPing", lua: "return 1" };
      while ((await link.run(ping, "ping", [])) === undefined) await pause(20);
      const burst = await Promise.all(Array.from({ length: 5 }, () => events.admit("burst", 3, 1_000)));
      expect(burst.filter((admission) => admission.allowed)).toHaveLength(3);
      expect(await events.admit("k", 2, 400)).toEqual({ allowed: true, retryInMs: 0 });
      await pause(200);
      expect(await events.admit("k", 2, 400)).toEqual({ allowed: true, retryInMs: 0 });
      const refused = await events.admit("k", 2, 400);
      expect(refused.allowed).toBe(false);
      expect(refused.retryInMs).toBeGreaterThan(0);
      expect(refused.retryInMs).toBeLessThanOrEqual(200);
      // The first event has left the window, the second has not: one place, not a fresh window of two.
      await pause(250);
      expect(await events.admit("k", 2, 400)).toEqual({ allowed: true, retryInMs: 0 });
      expect((await events.admit("k", 2, 400)).allowed).toBe(false);
    } finally {
      await link.close();
    }
  });

  it("shares one address's count of a form between two server processes", async () => {
    const env = { REDIS_URL: redisUrl, RATE_LIMIT_REDIS_PREFIX: prefix() };
    const first = await startServer(env);
    servers.push(first);
    const second = await first.twin(env);
    servers.push(second);
    const form = await spamCheckedForm(first);
    for (let n = 1; n <= 10; n++) expect((await form.send(n % 2 ? first : second, n)).status).toBe(200);
    expectRefused(await form.send(first, 11));
    expectRefused(await form.send(second, 12));
    expect(await form.saved()).toBe(10);
  });

  it("counts in the process's memory while Redis cannot be reached, with a logged warning", async () => {
    const server = await startServer({ REDIS_URL: "redis://127.0.0.1:1" });
    servers.push(server);
    const form = await spamCheckedForm(server);
    for (let n = 1; n <= 10; n++) expect((await form.send(server, n)).status).toBe(200);
    expectRefused(await form.send(server, 11));
    expect(await form.saved()).toBe(10);
    expect(server.output.some((line) => /"level":"warn".*Redis unavailable/.test(line))).toBe(true);
  });
});
