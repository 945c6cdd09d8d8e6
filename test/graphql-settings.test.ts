// Settings that REST keeps read-only (content-api.md: feed_*, routing_override, notification_*) are set
// over GraphQL; REST GET shows them and REST PUT still ignores them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
let account: TestAccount;
let client: Api;
let readToken: string;

function graphql(query: string, variables: Record<string, unknown> = {}, token = account.token) {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
}

const feedMutation = `mutation ($account: ID!, $id: ID!, $input: CollectionFeedInput!) {
  collectionFeedUpdate(account_id: $account, id: $id, input: $input) {
    handle feed_enabled feed_path feed_title feed_description feed_limit
  }
}`;
const routingMutation = `mutation ($account: ID!, $collection: ID!, $id: ID!, $input: EntryRoutingInput!) {
  entryRoutingUpdate(account_id: $account, collection_id: $collection, id: $id, input: $input) {
    handle content_path routing_override
  }
}`;
const notificationsMutation = `mutation ($account: ID!, $id: ID!, $input: FormNotificationsInput!) {
  formNotificationsUpdate(account_id: $account, id: $id, input: $input) {
    handle notification_enabled notification_emails
  }
}`;

const feed = (id: string, input: Record<string, unknown>, token?: string) =>
  graphql(feedMutation, { account: account.account_id, id, input }, token);
const routing = (collection: string, id: string, input: Record<string, unknown>) =>
  graphql(routingMutation, { account: account.account_id, collection, id, input });
const notifications = (id: string, input: Record<string, unknown>) =>
  graphql(notificationsMutation, { account: account.account_id, id, input });

function expectInvalid(response: Awaited<ReturnType<typeof graphql>>, path: string) {
  expect(response.status, response.text).not.toBe(500);
  const error = response.body.errors?.[0];
  expect(error, response.text).toBeDefined();
  expect(error.extensions.code, response.text).toBe("UNPROCESSABLE_ENTITY");
  expect(
    error.extensions.details.map((d: { path: string }) => d.path),
    response.text,
  ).toContain(path);
}

beforeAll(async () => {
  server = await startServer();
  account = await createAccount(server);
  client = api(server, account);
  const read = await cms(server, [
    "token",
    "create",
    "--account",
    account.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  readToken = JSON.parse(read.stdout).token;
  for (const handle of ["blog", "news"]) {
    const created = await client.post("/collections", {
      name: handle,
      handle,
      routing: `${handle}/:handle`,
      blueprint: { handle: `${handle}-bp`, fields: [{ handle: "body", type: "text" }] },
    });
    expect(created.status, created.text).toBe(201);
  }
  for (const handle of ["hello", "other"]) {
    const entry = await client.post("/collections/blog/entries", { handle, title: handle });
    expect(entry.status, entry.text).toBe(201);
  }
  const form = await client.post("/forms", {
    title: "Contact",
    handle: "contact",
    collection_handle: "news",
    blueprint_handle: "news-bp",
  });
  expect(form.status, form.text).toBe(201);
});

afterAll(async () => {
  await server?.stop();
});

describe("collection feed settings over GraphQL", () => {
  it("sets the feed settings, shown by REST GET", async () => {
    const response = await feed("blog", {
      feed_enabled: true,
      feed_path: "/blog/feed.xml",
      feed_title: "The blog",
      feed_description: "Everything new",
      feed_limit: 50,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.collectionFeedUpdate).toEqual({
      handle: "blog",
      feed_enabled: true,
      feed_path: "blog/feed.xml",
      feed_title: "The blog",
      feed_description: "Everything new",
      feed_limit: 50,
    });
    const rest = await client.get("/collections/blog");
    expect(rest.body).toMatchObject({
      feed_enabled: true,
      feed_path: "blog/feed.xml",
      feed_title: "The blog",
      feed_description: "Everything new",
      feed_limit: 50,
    });
  });

  it("changes only the sent settings; null clears title and description", async () => {
    const response = await feed("blog", { feed_limit: 10, feed_title: null, feed_description: null });
    expect(response.body.data.collectionFeedUpdate).toMatchObject({
      feed_enabled: true,
      feed_path: "blog/feed.xml",
      feed_title: null,
      feed_description: null,
      feed_limit: 10,
    });
  });

  it("keeps REST PUT from changing them", async () => {
    const put = await client.put("/collections/blog", {
      name: "Blog",
      feed_enabled: false,
      feed_path: "x/y.xml",
      feed_limit: 3,
      feed_title: "REST",
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      name: "Blog",
      feed_enabled: true,
      feed_path: "blog/feed.xml",
      feed_limit: 10,
    });
    expect(put.body.feed_title).toBeNull();
  });

  it("refuses bad paths and limits with a 422 on the field", async () => {
    for (const feed_path of ["", "blog feed.xml", "../feed.xml", "blog//feed.xml", "https://x.test/feed"]) {
      expectInvalid(await feed("news", { feed_path }), "feed_path");
    }
    for (const feed_limit of [0, 101, -5]) expectInvalid(await feed("news", { feed_limit }), "feed_limit");
    expectInvalid(await feed("news", { feed_title: "x".repeat(201) }), "feed_title");
  });

  it("needs a path to enable a feed, unique among the account's enabled feeds", async () => {
    expectInvalid(await feed("news", { feed_enabled: true }), "feed_path");
    expectInvalid(await feed("news", { feed_enabled: true, feed_path: "blog/feed.xml" }), "feed_path");
    // A disabled collection may hold the same path; enabling it then is refused.
    const disabled = await feed("news", { feed_path: "blog/feed.xml" });
    expect(disabled.body.errors, disabled.text).toBeUndefined();
    expectInvalid(await feed("news", { feed_enabled: true }), "feed_path");
    const ok = await feed("news", { feed_enabled: true, feed_path: "news/rss.xml" });
    expect(ok.body.data.collectionFeedUpdate).toMatchObject({
      feed_enabled: true,
      feed_path: "news/rss.xml",
    });
    const off = await feed("blog", { feed_enabled: false });
    expect(off.body.data.collectionFeedUpdate.feed_enabled).toBe(false);
  });

  it("answers an unknown collection with NOT_FOUND", async () => {
    const response = await feed("missing", { feed_limit: 5 });
    expect(response.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });
});

describe("entry routing override over GraphQL", () => {
  it("moves content_path to the override and back when cleared", async () => {
    const set = await routing("blog", "hello", { routing_override: "/about/team/" });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.entryRoutingUpdate).toEqual({
      handle: "hello",
      content_path: "/about/team",
      routing_override: "about/team",
    });
    const rest = await client.get("/collections/blog/entries/hello");
    expect(rest.body).toMatchObject({ content_path: "/about/team", routing_override: "about/team" });

    // REST updates keep the override (and ignore routing_override in the body).
    const put = await client.put("/collections/blog/entries/hello", {
      handle: "hello-2",
      routing_override: null,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      handle: "hello-2",
      content_path: "/about/team",
      routing_override: "about/team",
    });

    const cleared = await routing("blog", "hello-2", { routing_override: null });
    expect(cleared.body.data.entryRoutingUpdate).toEqual({
      handle: "hello-2",
      content_path: "/blog/hello-2",
      routing_override: null,
    });
    const after = await client.get("/collections/blog/entries/hello-2");
    expect(after.body).toMatchObject({ content_path: "/blog/hello-2", routing_override: null });
  });

  it("refuses bad paths and a path another entry has", async () => {
    for (const routing_override of ["", "/", "a b", "../x", "blog/:handle", "a//b"]) {
      expectInvalid(await routing("blog", "other", { routing_override }), "routing_override");
    }
    expectInvalid(await routing("blog", "other", { routing_override: "blog/hello-2" }), "routing_override");
  });

  it("answers an unknown entry with NOT_FOUND", async () => {
    const response = await routing("blog", "nope", { routing_override: "x" });
    expect(response.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });
});

describe("form notification settings over GraphQL", () => {
  it("stores the addresses as one comma-separated string, shown by REST GET", async () => {
    const response = await notifications("contact", {
      notification_enabled: true,
      notification_emails: [" a@example.com", "b@example.org", "A@example.com"],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.formNotificationsUpdate).toEqual({
      handle: "contact",
      notification_enabled: true,
      notification_emails: "a@example.com, b@example.org",
    });
    const rest = await client.get("/forms/contact");
    expect(rest.body).toMatchObject({
      notification_enabled: true,
      notification_emails: "a@example.com, b@example.org",
    });
  });

  it("keeps REST PUT from changing them", async () => {
    const put = await client.put("/forms/contact", {
      title: "Contact us",
      notification_enabled: false,
      notification_emails: "x@example.com",
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      title: "Contact us",
      notification_enabled: true,
      notification_emails: "a@example.com, b@example.org",
    });
  });

  it("refuses invalid addresses and enabling without addresses", async () => {
    for (const [notification_emails, bad] of [
      [["not-an-email"], 0],
      [["a@example.com", "b@"], 1],
      [["a@example.com, d@example.org"], 0],
    ] as const) {
      expectInvalid(await notifications("contact", { notification_emails }), `notification_emails[${bad}]`);
    }
    const many = Array.from({ length: 21 }, (_, i) => `user${i}@example.com`);
    expectInvalid(await notifications("contact", { notification_emails: many }), "notification_emails");
    expectInvalid(await notifications("contact", { notification_emails: [] }), "notification_emails");
    const off = await notifications("contact", { notification_enabled: false, notification_emails: null });
    expect(off.body.data.formNotificationsUpdate).toEqual({
      handle: "contact",
      notification_enabled: false,
      notification_emails: null,
    });
    expectInvalid(await notifications("contact", { notification_enabled: true }), "notification_emails");
  });
});

describe("scopes", () => {
  it("answers these mutations with FORBIDDEN for a read-scoped token", async () => {
    for (const [query, variables] of [
      [feedMutation, { account: account.account_id, id: "blog", input: { feed_limit: 7 } }],
      [
        routingMutation,
        { account: account.account_id, collection: "blog", id: "other", input: { routing_override: "z" } },
      ],
      [
        notificationsMutation,
        { account: account.account_id, id: "contact", input: { notification_enabled: false } },
      ],
    ] as const) {
      const response = await graphql(query, variables, readToken);
      expect(response.status, response.text).not.toBe(500);
      expect(response.body.errors?.[0]?.extensions?.code, response.text).toBe("FORBIDDEN");
    }
    expect((await client.get("/collections/blog")).body.feed_limit).not.toBe(7);
  });

  it("answers another account's token with FORBIDDEN", async () => {
    const other = await createAccount(server, "Other");
    const response = await feed("blog", { feed_limit: 9 }, other.token);
    expect(response.body.errors?.[0]?.extensions?.code, response.text).toBe("FORBIDDEN");
  });
});
