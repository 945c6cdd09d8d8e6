// Webhooks: the configuration over REST (secret shown once, rotation, 422s, scopes, accounts,
// refused private targets), every event with its body `{type, timestamp, data}` where data is the REST
// state of the record at that moment, filters and disabled webhooks, a scheduled entry going live, redirects
// not followed, and the delivery log. Real server, real receivers on loopback, signatures verified with
// the `standardwebhooks` package. Retries, restarts, SIGKILL and two processes: webhooks-delivery.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api } from "./helpers/api.ts";
import { expect422Naming, expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { createAccount } from "./helpers/cli.ts";
import { readOnlyApi } from "./helpers/fixtures.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";
import {
  pause,
  type Received,
  type Receiver,
  startReceiver,
  verifies,
  waitUntil,
} from "./helpers/webhook-receiver.ts";

const env = {
  OUTBOUND_ALLOW_PRIVATE: "true",
  WEBHOOK_RETRY_BASE_MS: "200",
  WEBHOOK_MAX_ATTEMPTS: "3",
  WEBHOOK_POLL_MS: "100",
};

let server: TestServer;
const receivers: Receiver[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await Promise.all(servers.map((one) => one.stop()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

beforeAll(async () => {
  server = await startServer(env);
  servers.push(server);
});

const deliveryFields = [
  "attempts",
  "created_at",
  "event_type",
  "id",
  "last_error",
  "last_response_status",
  "next_attempt_at",
  "status",
  "updated_at",
  "webhook_id",
];

describe("configuration", () => {
  let client: Api;
  let hooks: Receiver;
  beforeAll(async () => {
    client = api(server, await createAccount(server, "Config"));
    hooks = await receiver();
  });

  it("answers a create with 201 and the secret once; GET and the list never show it", async () => {
    const created = await client.post("/webhooks", {
      url: hooks.url("/created"),
      events: ["entry.created", "entry.created", "asset.deleted"],
      description: "Rebuild the site",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^whk_[0-9a-z]{26}$/),
      url: hooks.url("/created"),
      events: ["entry.created", "asset.deleted"],
      enabled: true,
      description: "Rebuild the site",
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const { secret, ...shown } = created.body;
    expect(Buffer.from(secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const one = await client.get(`/webhooks/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(shown);
    const list = await client.get("/webhooks");
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(shown);
    expect(list.body.pagination).toMatchObject({ page: 1 });
    for (const text of [one.text, list.text]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain("secret");
    }
    const second = await expectCreated(client.post("/webhooks", { url: hooks.url("/2"), events: ["*"] }));
    expect(second.secret).not.toBe(secret);
    const ids = (await client.get("/webhooks")).body.data.map((hook: { id: string }) => hook.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(created.body.id));
  });

  it("changes the fields a PUT sends and keeps the others; DELETE answers 204, then 404", async () => {
    const created = await expectCreated(
      client.post("/webhooks", { url: hooks.url("/put"), events: ["*"], description: "First" }),
    );
    const put = await client.put(`/webhooks/${created.id}`, {
      url: hooks.url("/moved"),
      events: ["template.created", "global.updated"],
      enabled: false,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({
      id: created.id,
      url: hooks.url("/moved"),
      events: ["template.created", "global.updated"],
      enabled: false,
      description: "First",
      created_at: created.created_at,
      updated_at: expect.stringMatching(ISO),
    });
    expect(put.text).not.toContain("secret");
    const cleared = await client.put(`/webhooks/${created.id}`, { description: null });
    expect(cleared.body).toMatchObject({ description: null, enabled: false, url: hooks.url("/moved") });
    expect((await client.get(`/webhooks/${created.id}`)).body).toEqual(cleared.body);

    const deleted = await client.delete(`/webhooks/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.get(`/webhooks/${created.id}`), 404);
    expectError(await client.delete(`/webhooks/${created.id}`), 404);
    expectError(await client.put(`/webhooks/${created.id}`, { enabled: true }), 404);
    expectError(await client.post(`/webhooks/${created.id}/rotate_secret`), 404);
    expectError(await client.get(`/webhooks/${created.id}/deliveries`), 404);
  });

  it("rotates the secret: later deliveries verify with the new one only", async () => {
    const created = await expectCreated(
      client.post("/webhooks", { url: hooks.url("/rotate"), events: ["global.updated"] }),
    );
    await expectCreated(client.post("/globals", { name: "Site", handle: "site", tagline: "One" }));
    const onPath = (got: Received) => got.path === "/rotate";
    expect((await client.put("/globals/site", { name: "Site 1" })).status).toBe(200);
    const [first] = await hooks.waitFor(onPath);
    expect(verifies(created.secret, first as Received)).toBe(true);

    const rotated = await client.post(`/webhooks/${created.id}/rotate_secret`);
    expect(rotated.status, rotated.text).toBe(200);
    const { secret, updated_at: _, ...same } = rotated.body;
    const { secret: old, updated_at: __, ...before } = created;
    expect(same).toEqual(before);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(secret).not.toBe(old);
    expect((await client.get(`/webhooks/${created.id}`)).text).not.toContain(secret);

    expect((await client.put("/globals/site", { name: "Site 2" })).status).toBe(200);
    const [, second] = await hooks.waitFor(onPath, 2);
    expect(second?.json.data.name).toBe("Site 2");
    expect(verifies(secret, second as Received)).toBe(true);
    expect(verifies(old, second as Received)).toBe(false);
    expect(verifies(secret, first as Received)).toBe(false);
  });

  it("refuses a bad url, unknown events and no events with 422 details", async () => {
    const good = { url: hooks.url(), events: ["*"] };
    for (const url of ["ftp://example.com/hook", "not a url", "", "http://", "javascript:alert(1)"])
      expect422Naming(await client.post("/webhooks", { ...good, url }), "url");
    expect422Naming(await client.post("/webhooks", { events: ["*"] }), "url");
    for (const events of [[], null])
      expect422Naming(await client.post("/webhooks", { ...good, events }), "events");
    const unknown = await client.post("/webhooks", {
      ...good,
      events: ["entry.created", "entry.nope", "*.*"],
    });
    expect(expectError(unknown, 422, "events[1]", "events[2]")[0]?.message).toContain("entry.created");
    const long = { ...good, description: "x".repeat(501) };
    expect422Naming(await client.post("/webhooks", long), "description");
    const created = await expectCreated(client.post("/webhooks", good));
    expect422Naming(await client.put(`/webhooks/${created.id}`, { url: "ftp://x" }), "url");
    expect422Naming(await client.put(`/webhooks/${created.id}`, { events: [] }), "events");
    expect((await client.get(`/webhooks/${created.id}`)).body).toMatchObject(good);
  });

  it("needs a write token: a read token gets 403 everywhere", async () => {
    const created = await expectCreated(client.post("/webhooks", { url: hooks.url(), events: ["*"] }));
    const reader = await readOnlyApi(server, client.account);
    const path = `/webhooks/${created.id}`;
    const refused = [
      await reader.get("/webhooks"),
      await reader.post("/webhooks", { url: hooks.url(), events: ["*"] }),
      await reader.get(path),
      await reader.put(path, { enabled: false }),
      await reader.delete(path),
      await reader.post(`${path}/rotate_secret`),
      await reader.get(`${path}/deliveries`),
      await reader.post(`${path}/deliveries/msg_01m86qk4y29vy2ej45c6gzafpx/redeliver`),
    ];
    for (const response of refused) expectError(response, 403);
    expect((await client.get(path)).body).toMatchObject({ enabled: true });
  });

  it("answers 404 for another account's webhook and leaves it as it was", async () => {
    const created = await expectCreated(client.post("/webhooks", { url: hooks.url(), events: ["*"] }));
    const other = api(server, await createAccount(server, "Other"));
    const path = `/webhooks/${created.id}`;
    expectError(await other.get(path), 404);
    expectError(await other.put(path, { enabled: false }), 404);
    expectError(await other.post(`${path}/rotate_secret`), 404);
    expectError(await other.get(`${path}/deliveries`), 404);
    expectError(await other.delete(path), 404);
    expect((await other.get("/webhooks")).body.data).toEqual([]);
    const { secret: _, ...shown } = created;
    expect((await client.get(path)).body).toEqual(shown);
  });

  it("refuses loopback, private and IPv4-mapped targets without OUTBOUND_ALLOW_PRIVATE", async () => {
    const strict = await startServer({ ...env, OUTBOUND_ALLOW_PRIVATE: undefined });
    servers.push(strict);
    const guarded = api(strict, await createAccount(strict, "Strict"));
    const refused = [
      hooks.url(),
      "http://10.0.0.1/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://[::1]:8080/",
      "http://169.254.169.254/latest",
      "http://localhost/hook",
    ];
    for (const url of refused) {
      const response = await guarded.post("/webhooks", { url, events: ["*"] });
      expect422Naming(response, "url");
    }
    const created = await expectCreated(
      guarded.post("/webhooks", { url: "https://93.184.215.14/hook", events: ["*"] }),
    );
    expect422Naming(await guarded.put(`/webhooks/${created.id}`, { url: "http://127.0.0.1/" }), "url");
    expect((await guarded.get("/webhooks")).body.data.map((hook: { url: string }) => hook.url)).toEqual([
      "https://93.184.215.14/hook",
    ]);
  });
});

describe("events", () => {
  let client: Api;
  let all: Receiver;
  let secret: string;
  /** Listens to entry.deleted only. */
  let deletes: Receiver;
  /** Created disabled. */
  let sleeper: Receiver;
  let sleeperId: string;

  beforeAll(async () => {
    client = api(server, await createAccount(server, "Events"));
    [all, deletes, sleeper] = await Promise.all([receiver(), receiver(), receiver()]);
    secret = (await expectCreated(client.post("/webhooks", { url: all.url(), events: ["*"] }))).secret;
    await expectCreated(client.post("/webhooks", { url: deletes.url(), events: ["entry.deleted"] }));
    sleeperId = (
      await expectCreated(client.post("/webhooks", { url: sleeper.url(), events: ["*"], enabled: false }))
    ).id;
    await expectCreated(
      client.post("/collections", {
        name: "Posts",
        handle: "posts",
        routing: "blog/:handle",
        blueprint: { fields: [{ handle: "body", type: "text" }] },
      }),
    );
  });

  /** The one event of `type` about record `id` on the `*` webhook, signed, with its body's shape. */
  async function event(type: string, id: string) {
    const [got, ...more] = await all.waitFor((one) => one.json?.type === type && one.json.data?.id === id);
    await pause(0);
    expect(more).toEqual([]);
    const received = got as Received;
    expect(verifies(secret, received)).toBe(true);
    expect(received.headers["content-type"]).toMatch(/^application\/json/);
    expect(received.id).toMatch(/^msg_/);
    expect(Object.keys(received.json).sort()).toEqual(["data", "timestamp", "type"]);
    expect(received.json.timestamp).toMatch(ISO);
    return received.json.data;
  }

  const typesAbout = (id: string) =>
    all.got.filter((got) => got.json?.data?.id === id).map((got) => got.json.type as string);

  it("tells of an entry's life, each body's data the REST state at that moment", async () => {
    const entryPath = (id: string) => `/collections/posts/entries/${id}`;
    const created = await expectCreated(
      client.post("/collections/posts/entries", { handle: "hello", title: "Hello", body: "Hi" }),
    );
    const afterCreate = (await client.get(entryPath(created.id))).body;
    expect(afterCreate.body).toBe("Hi");
    expect(await event("entry.created", created.id)).toEqual(afterCreate);
    expect(await event("entry.published", created.id)).toEqual(afterCreate);

    expect((await client.patch(entryPath(created.id), { body: "Changed" })).status).toBe(200);
    const afterUpdate = (await client.get(entryPath(created.id))).body;
    await all.waitFor((got) => got.json?.data?.body === "Changed");
    expect((await client.patch(entryPath(created.id), { published: false })).status).toBe(200);
    const afterHide = (await client.get(entryPath(created.id))).body;
    expect(await event("entry.unpublished", created.id)).toEqual(afterHide);
    expect((await client.patch(entryPath(created.id), { published: true, body: "Back" })).status).toBe(200);
    const afterShow = (await client.get(entryPath(created.id))).body;
    await all.waitFor((got) => got.json?.type === "entry.published" && got.json.data.body === "Back");

    const last = (await client.get(entryPath(created.id))).body;
    expect((await client.delete(entryPath(created.id))).status).toBe(204);
    expect(await event("entry.deleted", created.id)).toEqual(last);

    // In order per record, each change's events in the order they happened, each one delivered once.
    const updates = all.got.filter(
      (got) => got.json?.type === "entry.updated" && got.json.data.id === created.id,
    );
    expect(updates.map((got) => got.json.data)).toEqual([afterUpdate, afterHide, afterShow]);
    expect(typesAbout(created.id)).toEqual([
      "entry.created",
      "entry.published",
      "entry.updated",
      "entry.updated",
      "entry.unpublished",
      "entry.updated",
      "entry.published",
      "entry.deleted",
    ]);
    const ids = all.got.map((got) => got.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("tells of collections, globals and templates", async () => {
    const collection = await expectCreated(
      client.post("/collections", { name: "Pages", handle: "pages", routing: ":handle" }),
    );
    expect(await event("collection.created", collection.id)).toEqual(
      (await client.get("/collections/pages")).body,
    );
    expect((await client.put("/collections/pages", { name: "All pages" })).status).toBe(200);
    const renamed = (await client.get("/collections/pages")).body;
    expect(renamed.name).toBe("All pages");
    expect(await event("collection.updated", collection.id)).toEqual(renamed);
    expect((await client.delete("/collections/pages")).status).toBe(204);
    expect(await event("collection.deleted", collection.id)).toEqual(renamed);

    const global = await expectCreated(
      client.post("/globals", {
        name: "Settings",
        handle: "settings",
        fields: [{ handle: "tagline", type: "text" }],
      }),
    );
    await pause(300);
    expect(typesAbout(global.id)).toEqual([]);
    expect((await client.put("/globals/settings", { tagline: "Good things" })).status).toBe(200);
    const settings = (await client.get("/globals/settings")).body;
    expect(settings.tagline).toBe("Good things");
    expect(await event("global.updated", global.id)).toEqual(settings);

    const template = await expectCreated(
      client.post("/templates", { template: { title: "Card", handle: "card", html: "<p>{{ title }}</p>" } }),
    );
    expect(await event("template.created", template.id)).toEqual(
      (await client.get(`/templates/${template.id}`)).body,
    );
    const patched = await client.patch(`/templates/${template.id}`, { template: { html: "<b>x</b>" } });
    expect(patched.status, patched.text).toBe(200);
    const changed = (await client.get(`/templates/${template.id}`)).body;
    expect(await event("template.updated", template.id)).toEqual(changed);
    expect((await client.delete(`/templates/${template.id}`)).status).toBe(204);
    expect(await event("template.deleted", template.id)).toEqual(changed);
  });

  it("tells of navigations with their items, and of an item's change", async () => {
    const navigation = await expectCreated(client.post("/navigations", { title: "Main", handle: "main" }));
    expect(await event("navigation.created", navigation.id)).toEqual({
      ...(await client.get("/navigations/main")).body,
      items: [],
    });
    const item = await expectCreated(client.post("/navigations/main/items", { title: "Home", url: "/" }));
    const withItem = {
      ...(await client.get("/navigations/main")).body,
      items: (await client.get("/navigations/main/items")).body.data,
    };
    expect(withItem.items).toEqual([expect.objectContaining({ id: item.id, title: "Home" })]);
    expect(await event("navigation.updated", navigation.id)).toEqual(withItem);

    expect((await client.put("/navigations/main", { title: "Main menu" })).status).toBe(200);
    const renamed = (await client.get("/navigations/main")).body;
    const [, second] = await all.waitFor(
      (got) => got.json?.type === "navigation.updated" && got.json.data.id === navigation.id,
      2,
    );
    expect(second?.json.data).toEqual({ ...renamed, items: withItem.items });
    expect((await client.delete("/navigations/main")).status).toBe(204);
    expect(await event("navigation.deleted", navigation.id)).toEqual({ ...renamed, items: withItem.items });
  });

  it("tells of assets", async () => {
    const bytes = Buffer.from("hello, webhooks");
    const asset = await expectCreated(
      client.post("/assets", { filename: "note.txt", data: bytes.toString("base64") }),
    );
    const stored = (await client.get(`/assets/${asset.id}`)).body;
    expect(await event("asset.created", asset.id)).toEqual(stored);
    expect((await client.delete(`/assets/${asset.id}`)).status).toBe(204);
    expect(await event("asset.deleted", asset.id)).toEqual(stored);
  });

  it("tells of a form sent on the site, not of a honeypot post", async () => {
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
        honeypot_enabled: true,
      }),
    );
    const post = (fields: Record<string, string>) =>
      siteRequest(server, "/cms/contact/submit", client.account.domain, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams(fields).toString(),
      });
    const trap = await post({ "fields[name]": "Bot", website: "http://spam.example" });
    expect(trap.status, trap.text).toBe(200);
    const sent = await post({ "fields[name]": "Ada" });
    expect(sent.status, sent.text).toBe(200);
    const saved = (await client.get("/collections/messages/entries")).body.data;
    expect(saved).toHaveLength(1);
    const entry = (await client.get(`/collections/messages/entries/${saved[0].id}`)).body;
    expect(entry.name).toBe("Ada");
    expect(await event("form.submitted", entry.id)).toEqual(entry);
    expect(await event("entry.created", entry.id)).toEqual(entry);
    await pause(300);
    const submitted = all.got.filter((got) => got.json?.type === "form.submitted");
    expect(submitted.map((got) => got.json.data.name)).toEqual(["Ada"]);
  });

  it("sends a webhook listening to one event only that event", async () => {
    const deleted = all.got.filter((got) => got.json?.type === "entry.deleted");
    expect(deleted.length).toBeGreaterThan(0);
    await deletes.waitFor(() => true, deleted.length);
    expect(deletes.got.map((got) => got.json.type)).toEqual(deleted.map(() => "entry.deleted"));
    expect(deletes.got.map((got) => got.json.data).sort(byId)).toEqual(
      deleted.map((got) => got.json.data).sort(byId),
    );
  });

  it("sends a disabled webhook nothing until it is enabled", async () => {
    expect(sleeper.got).toEqual([]);
    const enabled = await client.put(`/webhooks/${sleeperId}`, { enabled: true });
    expect(enabled.body.enabled).toBe(true);
    const entry = await expectCreated(
      client.post("/collections/posts/entries", { handle: "awake", title: "Awake" }),
    );
    await sleeper.waitFor((got) => got.json.type === "entry.published");
    expect(sleeper.got.map((got) => [got.json.type, got.json.data.id])).toEqual([
      ["entry.created", entry.id],
      ["entry.published", entry.id],
    ]);
    const log = await client.get(`/webhooks/${sleeperId}/deliveries`);
    expect(log.body.data.map((row: { event_type: string }) => row.event_type)).toEqual([
      "entry.published",
      "entry.created",
    ]);
  });

  it("tells of a scheduled entry going live when its time comes, with no write", async () => {
    const at = new Date(Date.now() + 2_000);
    at.setMilliseconds(0);
    const entry = await expectCreated(
      client.post("/collections/posts/entries", {
        handle: "later",
        title: "Later",
        published_at: at.toISOString(),
      }),
    );
    expect(await event("entry.created", entry.id)).toMatchObject({ published: true });
    await pause(500);
    expect(typesAbout(entry.id)).toEqual(["entry.created"]);
    const [live] = await all.waitFor(
      (got) => got.json?.type === "entry.published" && got.json.data.id === entry.id,
      1,
      10_000,
    );
    expect(live?.at).toBeGreaterThanOrEqual(at.getTime());
    expect(Date.parse(live?.json.timestamp)).toBeGreaterThanOrEqual(at.getTime());
    expect(live?.json.data).toEqual((await client.get(`/collections/posts/entries/${entry.id}`)).body);
    await pause(500);
    expect(typesAbout(entry.id)).toEqual(["entry.created", "entry.published"]);
  });
});

const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);

describe("delivery", () => {
  let client: Api;
  beforeAll(async () => {
    client = api(server, await createAccount(server, "Delivery"));
    await expectCreated(client.post("/globals", { name: "Site", handle: "site" }));
  });

  it("does not follow a redirect: a 302 is a failure and its target is never asked", async () => {
    const [redirecting, target] = await Promise.all([receiver(), receiver()]);
    redirecting.answer = () => ({ status: 302, headers: { location: target.url("/elsewhere") } });
    const hook = await expectCreated(
      client.post("/webhooks", { url: redirecting.url(), events: ["global.updated"] }),
    );
    expect((await client.put("/globals/site", { name: "Moved" })).status).toBe(200);
    const [failed] = await waitUntil(async () => {
      const log = await client.get(`/webhooks/${hook.id}/deliveries?status=failed`);
      return log.body.data.length > 0 ? log.body.data : undefined;
    });
    expect(failed).toMatchObject({
      status: "failed",
      attempts: 3,
      last_response_status: 302,
      last_error: expect.stringContaining("302"),
      next_attempt_at: null,
    });
    expect(redirecting.got.map((got) => got.id)).toEqual([failed.id, failed.id, failed.id]);
    expect(target.got).toEqual([]);
  });

  it("lists deliveries newest first with their fields, and filters by status", async () => {
    const hooks = await receiver();
    hooks.answer = (got) => ({ status: got.json.data.name === "Broken" ? 500 : 204 });
    const hook = await expectCreated(
      client.post("/webhooks", { url: hooks.url(), events: ["global.updated"] }),
    );
    for (const name of ["One", "Broken", "Three"]) {
      expect((await client.put("/globals/site", { name })).status).toBe(200);
      await pause(20);
    }
    // The third waits for the second (in order per record) until the second has failed.
    await hooks.waitFor((got) => got.json.data.name === "Three");
    const log = await client.get(`/webhooks/${hook.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.pagination).toMatchObject({ page: 1, total: 3 });
    const rows = log.body.data;
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(deliveryFields);
      expect(row).toMatchObject({ webhook_id: hook.id, event_type: "global.updated" });
      expect(row.created_at).toMatch(ISO);
      expect(row.updated_at).toMatch(ISO);
    }
    const ids = rows.map((row: { id: string }) => row.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const sent = (id: string) => hooks.got.filter((got) => got.id === id).map((got) => got.json.data.name);
    expect(sent(ids[2])).toEqual(["One"]);
    expect(sent(ids[1])).toEqual(["Broken", "Broken", "Broken"]);
    expect(sent(ids[0])).toEqual(["Three"]);
    expect(rows[0]).toMatchObject({
      status: "delivered",
      attempts: 1,
      last_response_status: 204,
      last_error: null,
      next_attempt_at: null,
    });
    expect(rows[1]).toMatchObject({
      status: "failed",
      attempts: 3,
      last_response_status: 500,
      last_error: expect.stringContaining("500"),
      next_attempt_at: null,
    });
    const failed = await client.get(`/webhooks/${hook.id}/deliveries?status=failed`);
    expect(failed.body.data).toEqual([rows[1]]);
    const delivered = await client.get(`/webhooks/${hook.id}/deliveries?status=delivered`);
    expect(delivered.body.data).toEqual([rows[0], rows[2]]);
    expect((await client.get(`/webhooks/${hook.id}/deliveries?status=pending`)).body.data).toEqual([]);
    expect422Naming(await client.get(`/webhooks/${hook.id}/deliveries?status=lost`), "status");
  });
});
