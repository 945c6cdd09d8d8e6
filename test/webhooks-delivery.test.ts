// Webhook delivery that is never lost: retries with a doubling delay until
// WEBHOOK_MAX_ATTEMPTS then `failed`, a timeout counted as a failure, redelivery with the same webhook-id,
// a receiver down until after a server restart, a server killed (SIGKILL) right after acknowledging a
// write, and two server processes on one database delivering each event exactly once. Real server
// processes, real receivers on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expectCreated, expectError } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import {
  freePort,
  pause,
  type Received,
  type Receiver,
  startReceiver,
  verifies,
  waitUntil,
} from "./helpers/webhook-receiver.ts";

const receivers: Receiver[] = [];
const posts = {
  name: "Posts",
  handle: "posts",
  routing: "blog/:handle",
  blueprint: { fields: [{ handle: "body", type: "text" }] },
};
const running: TestServer[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  // The last server of a chain of restarts drops the database; twins keep it, so they stop first.
  for (const server of running.reverse()) await server.stop();
});

async function receiver(port?: number): Promise<Receiver> {
  const started = await startReceiver(port);
  receivers.push(started);
  return started;
}

/** A delivery's row in the log, found by its ID. */
async function logRow(client: Api, hook: string, id: string) {
  const log = await client.get(`/webhooks/${hook}/deliveries`);
  expect(log.status, log.text).toBe(200);
  return log.body.data.find((row: { id: string }) => row.id === id);
}

/** Waits until the hook's log has a row for which `match` holds; that row. */
function waitForRow(client: Api, hook: string, match: (row: any) => boolean, timeoutMs = 15_000) {
  return waitUntil(
    async () => {
      const log = await client.get(`/webhooks/${hook}/deliveries`);
      return log.body.data.find(match);
    },
    timeoutMs,
    () => `a delivery of ${hook} in the log`,
  );
}

describe("retries", () => {
  let server: TestServer;
  let client: Api;
  let secret: string;
  let hookId: string;
  let hooks: Receiver;

  beforeAll(async () => {
    server = await startServer({
      OUTBOUND_ALLOW_PRIVATE: "true",
      WEBHOOK_RETRY_BASE_MS: "200",
      WEBHOOK_MAX_ATTEMPTS: "4",
      WEBHOOK_TIMEOUT_MS: "1000",
      WEBHOOK_POLL_MS: "100",
    });
    running.push(server);
    client = api(server, await createAccount(server, "Retries"));
    hooks = await receiver();
    const hook = await expectCreated(
      client.post("/webhooks", { url: hooks.url(), events: ["global.updated"] }),
    );
    secret = hook.secret;
    hookId = hook.id;
    await expectCreated(client.post("/globals", { name: "Site", handle: "site" }));
  });

  /** Updates the global; the delivery of that change, once the receiver has seen it `count` times. */
  async function change(name: string, count = 1): Promise<Received[]> {
    expect((await client.put("/globals/site", { name })).status).toBe(200);
    return waitUntil(
      () => {
        const seen = hooks.got.filter((got) => got.json?.data?.name === name);
        return seen.length >= count ? seen : undefined;
      },
      15_000,
      () => `${count} attempts of ${name}`,
    );
  }

  it("retries a receiver failing twice, with a doubling delay, and logs 3 attempts, delivered", async () => {
    let failures = 0;
    hooks.answer = (got) => ({ status: got.json.data.name === "Flaky" && failures++ < 2 ? 500 : 200 });
    const attempts = await change("Flaky", 3);
    expect(attempts.map((got) => got.status)).toEqual([500, 500, 200]);
    const [first, second, third] = attempts as [Received, Received, Received];
    expect(new Set(attempts.map((got) => got.id))).toEqual(new Set([first.id]));
    expect(new Set(attempts.map((got) => got.body)).size).toBe(1);
    for (const got of attempts) expect(verifies(secret, got)).toBe(true);
    // 200 ms after the first failure, 400 ms after the second (a poll of 100 ms may add to either).
    expect(second.at - first.at).toBeGreaterThanOrEqual(180);
    expect(third.at - second.at).toBeGreaterThanOrEqual(380);
    await pause(300);
    expect(hooks.got.filter((got) => got.id === first.id)).toHaveLength(3);
    expect(await logRow(client, hookId, first.id)).toMatchObject({
      event_type: "global.updated",
      status: "delivered",
      attempts: 3,
      last_response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
  });

  it("counts an answer slower than WEBHOOK_TIMEOUT_MS as a failure and retries it", async () => {
    let slow = true;
    hooks.answer = (got) => {
      if (got.json.data.name !== "Slow" || !slow) return {};
      slow = false;
      return { delayMs: 1_500 };
    };
    const [late, done] = (await change("Slow", 2)) as [Received, Received];
    expect(done.id).toBe(late.id);
    const row = await waitForRow(client, hookId, (one) => one.id === late.id && one.status === "delivered");
    expect(row).toMatchObject({ attempts: 2, last_response_status: 200, last_error: null });
  });

  it("gives up after WEBHOOK_MAX_ATTEMPTS (failed); a redelivery is pending, then delivered, same ID", async () => {
    let down = true;
    hooks.answer = (got) => ({ status: got.json.data.name === "Down" && down ? 503 : 200 });
    const [first] = (await change("Down", 4)) as [Received];
    const failed = await waitForRow(client, hookId, (one) => one.id === first.id && one.status === "failed");
    expect(failed).toMatchObject({
      attempts: 4,
      last_response_status: 503,
      last_error: expect.stringContaining("503"),
      next_attempt_at: null,
    });
    await pause(1_000);
    expect(hooks.got.filter((got) => got.id === first.id)).toHaveLength(4);
    const failedOnly = await client.get(`/webhooks/${hookId}/deliveries?status=failed`);
    expect(failedOnly.body.data).toEqual([failed]);

    down = false;
    const again = await client.post(`/webhooks/${hookId}/deliveries/${first.id}/redeliver`);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: first.id, status: "pending", attempts: 4 });
    const [resent] = await hooks.waitFor((got) => got.id === first.id);
    expect(resent?.body).toBe(first.body);
    expect(verifies(secret, resent as Received)).toBe(true);
    const delivered = await waitForRow(
      client,
      hookId,
      (one) => one.id === first.id && one.status === "delivered",
    );
    expect(delivered).toMatchObject({ attempts: 5, last_response_status: 200, last_error: null });
  });

  it("answers 404 for a redelivery of an unknown delivery or one of another webhook", async () => {
    const other = await expectCreated(client.post("/webhooks", { url: hooks.url("/other"), events: ["*"] }));
    const [one] = hooks.got;
    expectError(
      await client.post(`/webhooks/${hookId}/deliveries/msg_01m86qk4y29vy2ej45c6gzafpx/redeliver`),
      404,
    );
    expectError(await client.post(`/webhooks/${other.id}/deliveries/${one?.id}/redeliver`), 404);
    const stranger = api(server, await createAccount(server, "Stranger"));
    expectError(await stranger.post(`/webhooks/${hookId}/deliveries/${one?.id}/redeliver`), 404);
    expect((await logRow(client, hookId, one?.id as string)).status).toBe("delivered");
  });
});

describe("never lost", () => {
  const env = {
    OUTBOUND_ALLOW_PRIVATE: "true",
    WEBHOOK_RETRY_BASE_MS: "500",
    WEBHOOK_MAX_ATTEMPTS: "10",
    WEBHOOK_TIMEOUT_MS: "1000",
    WEBHOOK_POLL_MS: "100",
  };
  let server: TestServer;
  let client: Api;

  beforeAll(async () => {
    server = await startServer(env);
    client = api(server, await createAccount(server, "Durable"));
    await expectCreated(client.post("/collections", posts));
  });
  afterAll(async () => {
    running.push(server);
  });

  /** Points a new webhook at a port nothing listens on. */
  async function hookOnClosedPort() {
    const port = await freePort();
    const hook = await expectCreated(
      client.post("/webhooks", { url: `http://127.0.0.1:${port}/hook`, events: ["entry.created"] }),
    );
    return { port, hook };
  }

  async function restart() {
    server = await server.restart(env);
    client = api(server, client.account);
  }

  it("delivers to a receiver that was down until after a server restart", async () => {
    const { port, hook } = await hookOnClosedPort();
    const entry = await expectCreated(client.post("/collections/posts/entries", { handle: "a", title: "A" }));
    const tried = await waitForRow(client, hook.id, (row) => row.attempts >= 2);
    expect(tried).toMatchObject({ status: "pending", last_response_status: null });
    expect(tried.last_error).toEqual(expect.any(String));
    expect(tried.next_attempt_at).toEqual(expect.any(String));
    await restart();
    const up = await receiver(port);
    const [got] = await up.waitFor((one) => one.json.data.id === entry.id, 1, 20_000);
    expect(got?.id).toBe(tried.id);
    expect(verifies(hook.secret, got as Received)).toBe(true);
    expect(got?.json.data).toEqual((await client.get(`/collections/posts/entries/${entry.id}`)).body);
    expect(await waitForRow(client, hook.id, (row) => row.status === "delivered")).toMatchObject({
      id: tried.id,
      last_response_status: 200,
    });
  });

  it("delivers the event of a write acknowledged right before a SIGKILL, after the restart", async () => {
    const { port, hook } = await hookOnClosedPort();
    const acknowledged: string[] = [];
    let killed = false;
    const writes = Array.from({ length: 5 }, (_, n) =>
      client
        .post("/collections/posts/entries", { handle: `kill-${n}`, title: `Kill ${n}` })
        .then((response) => {
          if (response.status !== 201 || killed) return;
          acknowledged.push(response.body.id);
          killed = server.child.kill("SIGKILL");
        })
        .catch(() => {}),
    );
    await Promise.all(writes);
    expect(killed).toBe(true);
    await server.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(1);
    await restart();
    const up = await receiver(port);
    // A delivery whose attempt was under way at the kill waits for its lease (WEBHOOK_TIMEOUT_MS + 30 s).
    const got = await up.waitFor(
      (one) => acknowledged.includes(one.json.data.id),
      acknowledged.length,
      45_000,
    );
    for (const one of got) expect(verifies(hook.secret, one)).toBe(true);
    const log = await client.get(`/webhooks/${hook.id}/deliveries`);
    const created = (await client.get("/collections/posts/entries?per_page=100")).body.data;
    // Every write that committed, acknowledged or not, has exactly one delivery.
    const killedWrites = created.filter((entry: { handle: string }) => entry.handle.startsWith("kill-"));
    expect(log.body.data).toHaveLength(killedWrites.length);
  }, 60_000);
});

describe("two server processes on one database", () => {
  it("deliver every event exactly once", async () => {
    const env = {
      OUTBOUND_ALLOW_PRIVATE: "true",
      WEBHOOK_RETRY_BASE_MS: "200",
      WEBHOOK_POLL_MS: "50",
    };
    const first = await startServer(env);
    running.push(first);
    const second = await first.twin(env);
    running.push(second);
    const account = await createAccount(first, "Twins");
    const [one, two] = [api(first, account), api(second, account)];
    await expectCreated(one.post("/collections", posts));
    const hooks = await receiver();
    // A little slow, so that both dispatchers have deliveries due at once.
    hooks.answer = () => ({ delayMs: 15 });
    const hook = await expectCreated(one.post("/webhooks", { url: hooks.url(), events: ["entry.created"] }));
    const count = 40;
    const ids: string[] = [];
    for (let start = 0; start < count; start += 8) {
      const batch = Array.from({ length: 8 }, (_, k) => start + k).map((n) =>
        expectCreated(
          (n % 2 ? one : two).post("/collections/posts/entries", { handle: `e-${n}`, title: `E ${n}` }),
        ),
      );
      ids.push(...(await Promise.all(batch)).map((entry) => entry.id));
    }
    await hooks.waitFor(() => true, count, 30_000);
    await pause(1_000);
    const webhookIds = hooks.got.map((got) => got.id);
    expect(new Set(webhookIds).size).toBe(count);
    expect(webhookIds).toHaveLength(count);
    expect(hooks.got.map((got) => got.json.data.id).sort()).toEqual([...ids].sort());
    const pages = [1, 2].map((page) => one.get(`/webhooks/${hook.id}/deliveries?page=${page}`));
    const rows = (await Promise.all(pages)).flatMap((page) => page.body.data);
    expect(rows.map((row) => row.id).sort()).toEqual([...webhookIds].sort());
    for (const row of rows) expect(row).toMatchObject({ status: "delivered", attempts: 1 });
  }, 90_000);
});
