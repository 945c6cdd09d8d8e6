// The read cache per account (src/schema/read-cache.ts, src/db/changes.ts): one account's writes end none
// of another account's kept answers, here or through a second process; its own writes end its own at
// once here, and in a second process at once on SQLite and within the documented delay on PostgreSQL
// (NOTIFY). `X-Cache` says whether an answer was kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, api, request } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { seedNotesSite } from "./helpers/notes-site.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";

let server: TestServer;
let twin: TestServer;
let a: TestAccount;
let b: TestAccount;
let viaA: Api;
let viaB: Api;

beforeAll(async () => {
  server = await startServer();
  [a, b] = await Promise.all([createAccount(server, "A"), createAccount(server, "B")]);
  [viaA, viaB] = [api(server, a), api(server, b)];
  await Promise.all([seedNotesSite(viaA), seedNotesSite(viaB)]);
  twin = await server.twin();
});

afterAll(async () => {
  await twin?.stop();
  await server?.stop();
});

const bEntry = async (on = server) => {
  const response = await api(on, b).get("/collections/notes/entries/hello");
  expect(response.status, response.text).toBe(200);
  return { title: response.body.title as string, cache: response.headers.get("x-cache") };
};

const bPage = async (on = server) => {
  const response = await siteGet(on, "/notes/hello", b.domain);
  expect(response.status, response.text).toBe(200);
  return { text: response.text, cache: response.headers["x-cache"] };
};

const bGraphql = async () => {
  const response = await request(`${server.url}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      query: `{ entries(account_id: "${b.account_id}", collection_id: "notes") { data { title } } }`,
    }),
  });
  expect(response.status, response.text).toBe(200);
  return {
    titles: response.body.data.entries.data.map((entry: { title: string }) => entry.title),
    cache: response.headers.get("x-cache"),
  };
};

/** Reads until each of B's answers is kept (a first read keeps it). */
async function keepB(on = server): Promise<void> {
  await bEntry(on);
  await bPage(on);
  if (on === server) await bGraphql();
  expect((await bEntry(on)).cache).toBe("hit");
  expect((await bPage(on)).cache).toBe("hit");
  if (on === server) expect((await bGraphql()).cache).toBe("hit");
}

describe("one account's writes", () => {
  it("end none of another account's kept answers: REST, GraphQL, site pages", async () => {
    await keepB();
    for (let i = 0; i < 5; i++) {
      await expectCreated(viaA.post("/collections/notes/entries", { handle: `a-${i}`, title: `A ${i}` }));
      const updated = await viaA.put("/collections/notes/entries/hello", { title: `Hello ${i}` });
      expect(updated.status, updated.text).toBe(200);
    }
    const deleted = await viaA.delete("/collections/notes/entries/a-0");
    expect(deleted.status, deleted.text).toBe(204);
    expect(await bEntry()).toEqual({ title: "Hello", cache: "hit" });
    expect((await bPage()).cache).toBe("hit");
    expect(await bGraphql()).toEqual({ titles: ["Hello"], cache: "hit" });
  });

  it("end none of another account's kept answers when they publish as of a moment", async () => {
    await keepB();
    // Entries published as of a time just past (since B's answers were kept): on A's site from now on.
    const published_at = new Date(Date.now() - 1).toISOString();
    await expectCreated(
      viaA.post("/collections/notes/entries", { handle: "dated", title: "Dated", published_at }),
    );
    const updated = await viaA.put("/collections/notes/entries/hello", {
      title: "Hello dated",
      published_at: new Date().toISOString(),
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await siteGet(server, "/notes/dated", a.domain)).status).toBe(200);
    expect((await siteGet(server, "/notes/hello", a.domain)).text).toContain("Hello dated");
    expect(await bEntry()).toEqual({ title: "Hello", cache: "hit" });
    expect((await bPage()).cache).toBe("hit");
    expect(await bGraphql()).toEqual({ titles: ["Hello"], cache: "hit" });
  });

  it("end none of another account's kept answers when their entry comes due by the clock", async () => {
    const at = Date.now() + 1_500;
    await expectCreated(
      viaA.post("/collections/notes/entries", {
        handle: "scheduled",
        title: "Scheduled",
        published_at: new Date(at).toISOString(),
      }),
    );
    await keepB();
    expect((await siteGet(server, "/notes/scheduled", a.domain)).status).toBe(404);
    while ((await siteGet(server, "/notes/scheduled", a.domain)).status === 404) {
      expect(Date.now()).toBeLessThan(at + 5_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await bEntry()).toEqual({ title: "Hello", cache: "hit" });
    expect((await bPage()).cache).toBe("hit");
    expect(await bGraphql()).toEqual({ titles: ["Hello"], cache: "hit" });
  });

  it("end that account's own kept answers at once", async () => {
    await keepB();
    const updated = await viaB.put("/collections/notes/entries/hello", { title: "Hello B" });
    expect(updated.status, updated.text).toBe(200);
    expect(await bEntry()).toEqual({ title: "Hello B", cache: "miss" });
    const page = await bPage();
    expect(page.cache).toBe("miss");
    expect(page.text).toContain("<p>Hello B</p>");
    expect(await bGraphql()).toEqual({ titles: ["Hello B"], cache: "miss" });
  });

  it.runIf(usesPostgres)("end none of another account's kept answers through a second process", async () => {
    await keepB();
    const viaTwin = api(twin, a);
    await expectCreated(viaTwin.post("/collections/notes/entries", { handle: "from-twin", title: "Twin" }));
    // Whatever the delay, B's answers stay kept.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await bEntry()).toEqual({ title: "Hello B", cache: "hit" });
    expect((await bPage()).cache).toBe("hit");
  });
});

describe("a second process", () => {
  it("sees a change made through the other at once on SQLite, within 500 ms on PostgreSQL", async () => {
    await keepB(twin);
    const updated = await viaB.put("/collections/notes/entries/hello", { title: "Hello again" });
    expect(updated.status, updated.text).toBe(200);
    const written = Date.now();
    let seen = await bEntry(twin);
    // SQLite: the first read after the write (data_version). PostgreSQL: once the NOTIFY arrives.
    while (usesPostgres && seen.title !== "Hello again" && Date.now() - written < 2_000)
      seen = await bEntry(twin);
    expect(seen.title).toBe("Hello again");
    expect(Date.now() - written).toBeLessThan(500);
    expect((await bPage(twin)).text).toContain("<p>Hello again</p>");
  });
});
