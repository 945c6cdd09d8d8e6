// Writes racing other writes, through two server processes on one database. A write checks its records
// before its own statements, and another request's delete may come between: the record it changes gone
// is a 404, as if it had been gone before; a record it names gone is a 409 (the same request again is
// answered as any naming a record that does not exist); a webhook deleted meanwhile never fails the content
// write whose events it would have had. Rules across an account's records (one root-routed collection, one
// entry at each override path, templates that records name) hold however many writes check them at once.
// Never a 500, and nothing the server calls unexpected in its log.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api } from "./helpers/api.ts";
import { expectCreated } from "./helpers/assertions.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { graphql } from "./helpers/contact-form.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";

const ROUNDS = 5;
let server: TestServer;
let twin: TestServer;
let account: TestAccount;
/** Requests alternate between the two processes. */
let clients: Api[];
let turn = 0;
const client = () => clients[turn++ % clients.length] as Api;

beforeAll(async () => {
  // Webhooks to a receiver on loopback (nothing listens there: deliveries are only recorded).
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: "true" });
  twin = await server.twin();
  account = await createAccount(server, "Deleters");
  clients = [api(server, account), api(twin, account)];
}, 60_000);
afterAll(async () => {
  await twin?.stop();
  await server?.stop();
});

/** Runs `racers` with `deleter` among them, all at once: sent after `before` of them (all, by default). */
async function race(
  racers: (() => Promise<ApiResponse>)[],
  deleter: () => Promise<ApiResponse>,
  before = racers.length,
) {
  const sent = racers.slice(0, before).map((send) => send());
  const deleted = deleter();
  sent.push(...racers.slice(before).map((send) => send()));
  return { answers: await Promise.all(sent), deleted: await deleted };
}

/** Statuses outside `allowed`, with their bodies. */
const unexpected = (answers: { status: number; text: string }[], allowed: number[]) =>
  answers
    .filter((answer) => !allowed.includes(answer.status))
    .map((answer) => `${answer.status} ${answer.text}`);

/** What either process logged as an unexpected error since this test began. */
let logged = [0, 0];
beforeEach(() => {
  logged = [server.output.length, twin.output.length];
});
const since = (text: string) =>
  [server, twin]
    .flatMap((process, index) => process.output.slice(logged[index]))
    .filter((line) => line.includes(text));
const quiet = () => since("unexpected error");

let serial = 0;
const unique = (prefix: string) => `${prefix}-${++serial}`;

async function collectionNamed(handle: string, fields: object[] = [{ handle: "x", type: "text" }]) {
  await expectCreated(
    client().post("/collections", {
      name: handle,
      handle,
      routing: `${handle}/:handle`,
      blueprint: { fields },
    }),
  );
}

describe("an update racing the delete of its record", () => {
  const kinds: Record<string, { make(handle: string): Promise<string>; change(index: number): object }> = {
    collections: {
      make: async (handle) => {
        await collectionNamed(handle);
        return handle;
      },
      change: (index) => ({ name: `Name ${index}` }),
    },
    navigations: {
      make: async (handle) => {
        await expectCreated(client().post("/navigations", { title: handle, handle }));
        return handle;
      },
      change: (index) => ({ title: `Title ${index}` }),
    },
    templates: {
      make: async (handle) => {
        await expectCreated(client().post("/templates", { template: { handle, html: "x" } }));
        return handle;
      },
      change: (index) => ({ template: { html: `x ${index}` } }),
    },
    blueprints: {
      make: async (handle) => {
        await expectCreated(client().post("/blueprints", { title: handle, handle, fields: [] }));
        return handle;
      },
      change: (index) => ({ title: `Title ${index}` }),
    },
    globals: {
      make: async (handle) => {
        const name = handle.replace(/-/g, "_");
        await expectCreated(
          client().post("/globals", { name, handle: name, fields: [{ handle: "x", type: "text" }] }),
        );
        return name;
      },
      change: (index) => ({ x: `value ${index}` }),
    },
    webhooks: {
      make: async () =>
        (
          await expectCreated(
            client().post("/webhooks", { url: "http://127.0.0.1:9/hook", events: ["entry.created"] }),
          )
        ).id as string,
      change: (index) => ({ description: `Description ${index}` }),
    },
  };

  for (const [kind, { make, change }] of Object.entries(kinds)) {
    it(`of ${kind} answers 200 before it and 404 after it, never 500`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const path = `/${kind}/${await make(unique(kind.slice(0, 3)))}`;
        const { answers, deleted } = await race(
          Array.from({ length: 15 }, (_, index) => () => client().patch(path, change(index))),
          () => client().delete(path),
        );
        expect(deleted.status, deleted.text).toBe(204);
        expect(unexpected(answers, [200, 404])).toEqual([]);
        for (const gone of answers.filter((answer) => answer.status === 404))
          expect(gone.body).toEqual({ error: expect.stringMatching(/ not found$/), details: [] });
        expect((await client().get(path)).status).toBe(404);
      }
      expect(quiet()).toEqual([]);
    });
  }
});

describe("a write naming a record deleted meanwhile", () => {
  it("an entry whose entity field names an entry being deleted is created, refused 422, or a 409", async () => {
    const handle = unique("refs");
    await collectionNamed(handle, [{ handle: "related", type: "entity" }]);
    const entries = `/collections/${handle}/entries`;
    for (let round = 0; round < ROUNDS; round++) {
      const target = `target-${round}`;
      await expectCreated(client().post(entries, { handle: target, title: "Target" }));
      const { answers } = await race(
        Array.from(
          { length: 15 },
          (_, index) => () =>
            client().post(entries, { handle: `from-${round}-${index}`, title: "From", related: target }),
        ),
        () => client().delete(`${entries}/${target}`),
      );
      expect(unexpected(answers, [201, 409, 422])).toEqual([]);
      const conflicts = answers.filter((answer) => answer.status === 409);
      for (const conflict of conflicts)
        expect(conflict.body).toEqual({
          error: "Conflict",
          details: [{ path: "", message: "names a record that was deleted at the same time: send it again" }],
        });
      // Each is logged at warn with its stack, as a wrong ID in the code would be.
      if (conflicts.length > 0)
        await expect.poll(() => since('"msg":"write lost a race"').length).toBeGreaterThan(0);
    }
    expect(quiet()).toEqual([]);
  });

  it("content writes go on while a webhook listening to them is deleted, every one saved", async () => {
    const handle = unique("hooked");
    await collectionNamed(handle);
    const entries = `/collections/${handle}/entries`;
    for (let round = 0; round < ROUNDS; round++) {
      const hook = await expectCreated(
        client().post("/webhooks", { url: "http://127.0.0.1:9/hook", events: ["*"] }),
      );
      const { answers, deleted } = await race(
        Array.from(
          { length: 20 },
          (_, index) => () => client().post(entries, { handle: `e-${round}-${index}`, title: "Entry" }),
        ),
        () => client().delete(`/webhooks/${hook.id}`),
      );
      expect(deleted.status).toBe(204);
      expect(unexpected(answers, [201])).toEqual([]);
    }
    const listed = await client().get(`${entries}?per_page=1`);
    expect(listed.body.pagination.total).toBe(ROUNDS * 20);
    expect(quiet()).toEqual([]);
  });

  it("form submissions racing the delete of the form's collection are saved or answered 404", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const handle = unique("submitted");
      await collectionNamed(handle, [{ handle: "message", type: "text" }]);
      await expectCreated(
        client().post("/forms", {
          title: "Contact",
          handle,
          collection_handle: handle,
          blueprint_handle: handle,
        }),
      );
      const submit = (index: number) => () =>
        siteRequest(index % 2 ? twin : server, `/cms/${handle}/submit`, account.domain, {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ "fields[message]": `Hello ${index}` }).toString(),
        });
      const sent = Array.from({ length: 20 }, (_, index) => submit(index)());
      const deleted = await client().delete(`/collections/${handle}`);
      const answers = await Promise.all(sent);
      expect(deleted.status).toBe(204);
      expect(unexpected(answers, [200, 404])).toEqual([]);
      for (const gone of answers.filter((answer) => answer.status === 404))
        expect(JSON.parse(gone.text)).toEqual({ error: "Form not found", details: [] });
    }
    expect(quiet()).toEqual([]);
  });
});

describe("rules across an account's records", () => {
  it("one collection has root routing, however many are given it at once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const handles = Array.from({ length: 8 }, () => unique("root"));
      for (const handle of handles)
        await expectCreated(client().post("/collections", { name: handle, handle, routing: ":handle" }));
      const answers = await Promise.all(
        handles.map((handle) => client().patch(`/collections/${handle}`, { root_routing: true })),
      );
      expect(unexpected(answers, [200, 422])).toEqual([]);
      const stored = await Promise.all(
        handles.map(async (handle) => (await client().get(`/collections/${handle}`)).body),
      );
      const roots = stored.filter((collection) => collection.root_routing);
      expect(roots).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((answer) => answer.status === 422))
        expect(refused.body.details).toEqual([
          { path: "root_routing", message: `is already set on collection '${roots[0].handle}'` },
        ]);
      await client().patch(`/collections/${roots[0].handle}`, { root_routing: false });
    }
    expect(quiet()).toEqual([]);
  });

  it("a root-routed collection keeps routing :handle when both change at once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const handle = unique("rooted");
      await expectCreated(client().post("/collections", { name: handle, handle, routing: ":handle" }));
      const answers = await Promise.all([
        client().patch(`/collections/${handle}`, { root_routing: true }),
        client().patch(`/collections/${handle}`, { routing: "x/:handle" }),
      ]);
      expect(unexpected(answers, [200, 422])).toEqual([]);
      const { root_routing, routing } = (await client().get(`/collections/${handle}`)).body;
      expect(root_routing && routing !== ":handle", `${root_routing} ${routing}`).toBe(false);
      if (root_routing) await client().patch(`/collections/${handle}`, { root_routing: false });
    }
    expect(quiet()).toEqual([]);
  });

  it("a template deleted or renamed while entries and collections start naming it is never left named", async () => {
    const handle = unique("named");
    await collectionNamed(handle);
    const entries = `/collections/${handle}/entries`;
    for (let index = 0; index < 10; index++)
      await expectCreated(client().post(entries, { handle: `entry-${index}`, title: "Entry" }));
    for (let round = 0; round < ROUNDS; round++) {
      const template = unique("tpl");
      await expectCreated(client().post("/templates", { template: { handle: template, html: "x" } }));
      const renamed = `${template}-renamed`;
      const { answers, deleted } = await race(
        [
          ...Array.from(
            { length: 10 },
            (_, index) => () => client().patch(`${entries}/entry-${index}`, { template_handle: template }),
          ),
          () => client().patch(`/collections/${handle}`, { template_handle: template }),
        ],
        () =>
          round % 2
            ? client().patch(`/templates/${template}`, { template: { handle: renamed } })
            : client().delete(`/templates/${template}`),
      );
      expect(unexpected(answers, [200, 422])).toEqual([]);
      expect(unexpected([deleted], [200, 204, 409])).toEqual([]);
      const templates = new Set(
        (await client().get("/templates?per_page=100")).body.data.map((t: { handle: string }) => t.handle),
      );
      const named = [
        (await client().get(`/collections/${handle}`)).body.template_handle,
        ...(await client().get(`${entries}?per_page=100`)).body.data.map(
          (entry: { template_handle: string | null }) => entry.template_handle,
        ),
      ].filter((name) => name !== null);
      expect(named.filter((name) => !templates.has(name))).toEqual([]);
      // Free the template for the next round's delete.
      await client().patch(`/collections/${handle}`, { template_handle: null });
      for (let index = 0; index < 10; index++)
        await client().patch(`${entries}/entry-${index}`, { template_handle: null });
    }
    expect(quiet()).toEqual([]);
  });

  it("two renames of one template at once leave its collections naming it", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const template = unique("twice");
      await expectCreated(client().post("/templates", { template: { handle: template, html: "x" } }));
      const handle = unique("renamed");
      await expectCreated(
        client().post("/collections", {
          name: handle,
          handle,
          routing: `${handle}/:handle`,
          template_handle: template,
        }),
      );
      const answers = await Promise.all(
        ["a", "b"].map((end) =>
          client().patch(`/templates/${template}`, { template: { handle: `${template}-${end}` } }),
        ),
      );
      expect(unexpected(answers, [200, 404])).toEqual([]);
      const templates = (await client().get("/templates?per_page=100")).body.data.map(
        (t: { handle: string }) => t.handle,
      );
      expect(templates).toContain((await client().get(`/collections/${handle}`)).body.template_handle);
    }
    expect(quiet()).toEqual([]);
  });

  it("a template keeps its references when saves that send its handle or an entry's as it is race its rename", async () => {
    const handle = unique("resent");
    await collectionNamed(handle);
    const entries = `/collections/${handle}/entries`;
    const missing: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const template = unique("kept");
      const { id } = await expectCreated(
        client().post("/templates", { template: { handle: template, html: "x" } }),
      );
      await expectCreated(
        client().post(entries, { handle: `entry-${round}`, title: "E", template_handle: template }),
      );
      const { answers, deleted: renamed } = await race(
        Array.from(
          { length: 12 },
          (_, index) => () =>
            index % 2
              ? client().patch(`${entries}/entry-${round}`, {
                  title: `Saved ${index}`,
                  template_handle: template,
                })
              : client().patch(`/templates/${id}`, { template: { handle: template, html: `html ${index}` } }),
        ),
        () => client().patch(`/templates/${id}`, { template: { handle: `${template}-renamed` } }),
        6,
      );
      expect(unexpected([...answers, renamed], [200, 422])).toEqual([]);
      const named = (await client().get(`${entries}/entry-${round}`)).body.template_handle;
      if ((await client().get(`/templates/${named}`)).status !== 200) missing.push(named);
    }
    expect(missing).toEqual([]);
    expect(quiet()).toEqual([]);
  });

  it("one entry takes an override path, however many are given it at once", async () => {
    const handle = unique("moved");
    await collectionNamed(handle);
    const handles = Array.from({ length: 10 }, (_, index) => `entry-${index}`);
    for (const entry of handles)
      await expectCreated(client().post(`/collections/${handle}/entries`, { handle: entry, title: entry }));
    for (let round = 0; round < ROUNDS; round++) {
      const path = `shared/path-${round}`;
      const answers = await Promise.all(
        handles.map((entry, index) =>
          graphql(
            index % 2 ? twin : server,
            account,
            `mutation ($a: ID!, $c: ID!, $e: ID!, $o: String) {
              entryRoutingUpdate(account_id: $a, collection_id: $c, id: $e, input: { routing_override: $o }) {
                content_path
              }
            }`,
            { a: account.account_id, c: handle, e: entry, o: path },
          ),
        ),
      );
      const moved = answers.filter((answer) => answer.body.data?.entryRoutingUpdate);
      expect(moved, answers.map((answer) => answer.text).join("\n")).toHaveLength(1);
      for (const refused of answers.filter((answer) => answer.body.errors))
        expect(refused.body.errors[0].extensions.details).toEqual([
          {
            path: "routing_override",
            message: expect.stringMatching(/^is already the path of entry 'entry-\d'$/),
          },
        ]);
      const listed = await client().get(`/collections/${handle}/entries?per_page=100`);
      const at = listed.body.data.filter(
        (entry: { content_path: string }) => entry.content_path === `/${path}`,
      );
      expect(at).toHaveLength(1);
    }
    expect(quiet()).toEqual([]);
  });

  it("entries written while their collection's routing changes all end on the new routing", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const handle = unique("rerouted");
      await expectCreated(
        client().post("/collections", {
          name: handle,
          handle,
          routing: "old/:handle",
          blueprint: { fields: [] },
        }),
      );
      const entries = `/collections/${handle}/entries`;
      for (let index = 0; index < 10; index++)
        await expectCreated(client().post(entries, { handle: `before-${index}`, title: "Before" }));
      const { answers, deleted: rerouted } = await race(
        [
          ...Array.from(
            { length: 20 },
            (_, index) => () => client().post(entries, { handle: `during-${index}`, title: "During" }),
          ),
          ...Array.from(
            { length: 10 },
            (_, index) => () => client().patch(`${entries}/before-${index}`, { title: `Saved ${index}` }),
          ),
        ],
        () => client().patch(`/collections/${handle}`, { routing: "new/:handle" }),
        12,
      );
      expect(unexpected([...answers, rerouted], [200, 201])).toEqual([]);
      const stale = async () =>
        (await client().get(`${entries}?per_page=100`)).body.data
          .filter(
            (entry: { handle: string; content_path: string }) =>
              entry.content_path !== `/new/${entry.handle}`,
          )
          .map((entry: { content_path: string }) => entry.content_path);
      await expect.poll(stale, { timeout: 5_000 }).toEqual([]);
    }
    expect(quiet()).toEqual([]);
  });

  it("children written while their parent's handle changes all end under the new handle", async () => {
    const parents = unique("parents");
    await collectionNamed(parents);
    const children = unique("children");
    await expectCreated(
      client().post("/collections", {
        name: children,
        handle: children,
        routing: "kids/:parent/:handle",
        blueprint: { fields: [{ handle: "parent", type: "entity", options: { collection: parents } }] },
      }),
    );
    const entries = `/collections/${children}/entries`;
    for (let round = 0; round < ROUNDS; round++) {
      const parent = `parent-${round}`;
      // Named by ID: a child sent after the rename would not find the old handle.
      const { id: parentId } = await expectCreated(
        client().post(`/collections/${parents}/entries`, { handle: parent, title: "Parent" }),
      );
      for (let index = 0; index < 5; index++)
        await expectCreated(
          client().post(entries, { handle: `before-${round}-${index}`, title: "Kid", parent: parentId }),
        );
      const { answers, deleted: renamed } = await race(
        [
          ...Array.from(
            { length: 15 },
            (_, index) => () =>
              client().post(entries, { handle: `during-${round}-${index}`, title: "Kid", parent: parentId }),
          ),
          ...Array.from(
            { length: 5 },
            (_, index) => () =>
              client().patch(`${entries}/before-${round}-${index}`, { title: `Saved ${index}` }),
          ),
        ],
        () => client().patch(`/collections/${parents}/entries/${parent}`, { handle: `${parent}-renamed` }),
        8,
      );
      expect(unexpected([...answers, renamed], [200, 201])).toEqual([]);
      const stale = async () =>
        (await client().get(`${entries}?per_page=100`)).body.data
          .filter(
            (entry: { handle: string; content_path: string }) =>
              entry.handle.includes(`-${round}-`) &&
              entry.content_path !== `/kids/${parent}-renamed/${entry.handle}`,
          )
          .map((entry: { content_path: string }) => entry.content_path);
      await expect.poll(stale, { timeout: 5_000 }).toEqual([]);
    }
    expect(quiet()).toEqual([]);
  });
});
