// Forms over REST (content-api.md "Form", "Endpoints > Forms", "Errors"; decisions.md "REST decisions" and
// the form_for part of "Site rendering"). Everything goes through HTTP against the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Api, ApiResponse } from "./helpers/api.ts";
import { expect422, expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { mainPagedOther } from "./helpers/fixtures.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
/** Most tests: one account, each test using its own form handles. */
let client: Api;
/** Only the forms of the pagination tests. */
let paged: Api;
/** Another account, with its own token. */
let other: Api;
/** The other account's token aimed at the main account's path. */
let otherOnMain: Api;
/** A read-scoped token of the main account. */
let reader: Api;

const PAGED_COUNT = 25;
const pad = (n: number) => String(n).padStart(2, "0");

const fixture = {
  messagesId: "",
  contactBpId: "",
  ordersId: "",
  orderBpId: "",
  looseBpId: "",
  globalBpId: "",
  otherCollectionId: "",
};

const contactFields = [
  { handle: "full_name", type: "text", options: { required: true, placeholder: "Your name" } },
  { handle: "email", type: "text", options: { required: true, input_type: "email" } },
  { handle: "message", type: "rich_text", options: { help_text: "Say <hi>" } },
  { handle: "topic", type: "enumerate", options: { enumerations: ["sales", "support"] } },
  { handle: "subscribe", type: "toggle" },
  { handle: "spam_status", type: "text" },
];

/** The form's `fields` for the contact blueprint: as stored, without `spam_status`. */
const contactFieldsOut = [
  {
    handle: "full_name",
    display: "Full name",
    type: "text",
    position: 0,
    options: { required: true, placeholder: "Your name" },
  },
  {
    handle: "email",
    display: "Email",
    type: "text",
    position: 1,
    options: { required: true, input_type: "email" },
  },
  {
    handle: "message",
    display: "Message",
    type: "rich_text",
    position: 2,
    options: { help_text: "Say <hi>" },
  },
  {
    handle: "topic",
    display: "Topic",
    type: "enumerate",
    position: 3,
    options: { enumerations: ["sales", "support"] },
  },
  { handle: "subscribe", display: "Subscribe", type: "toggle", position: 4, options: {} },
];

const fieldProperties = [
  "handle",
  "label",
  "type",
  "required",
  "placeholder",
  "help_text",
  "input_type",
  "options",
  "name",
];

/** Every response field of a form on the contact blueprint, with the defaults of the optional ones. */
function formShape(handle: string, title: string) {
  return {
    id: expect.stringMatching(/^form_/),
    handle,
    title,
    collection_handle: "messages",
    blueprint_handle: "contact-bp",
    collection_id: fixture.messagesId,
    blueprint_id: fixture.contactBpId,
    redirect_url: null,
    success_message: null,
    honeypot_enabled: false,
    notification_enabled: false,
    notification_emails: null,
    spam_check_enabled: false,
    fields: contactFieldsOut,
    template_usage: {
      description: expect.any(String),
      important: expect.any(String),
      example: expect.any(String),
      manual_field_example: expect.any(String),
      available_field_properties: fieldProperties,
    },
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
  };
}

const contact = (extra: Record<string, unknown> = {}) => ({
  title: "Contact",
  collection_handle: "messages",
  blueprint_handle: "contact-bp",
  ...extra,
});

async function createForm(body: Record<string, unknown>) {
  return expectCreated(client.post("/forms", body));
}

async function formCount(): Promise<number> {
  return (await client.get("/forms")).body.pagination.total;
}

beforeAll(async () => {
  server = await startServer();
  ({ client, paged, other, otherOnMain, reader } = await mainPagedOther(server));

  const messages = await client.post("/collections", {
    name: "Messages",
    handle: "messages",
    routing: "messages/:handle",
    blueprint: { handle: "contact-bp", fields: contactFields },
  });
  expect(messages.status, messages.text).toBe(201);
  fixture.messagesId = messages.body.id;
  fixture.contactBpId = messages.body.blueprints[0].id;
  const orders = await client.post("/collections", {
    name: "Orders",
    handle: "orders",
    routing: "orders/:handle",
    blueprint: { handle: "order-bp", fields: [{ handle: "item", type: "text" }] },
  });
  expect(orders.status, orders.text).toBe(201);
  fixture.ordersId = orders.body.id;
  fixture.orderBpId = orders.body.blueprints[0].id;
  const loose = await client.post("/blueprints", { title: "Loose", handle: "loose-bp", fields: [] });
  expect(loose.status, loose.text).toBe(201);
  fixture.looseBpId = loose.body.id;
  const global = await client.post("/globals", { name: "Site", handle: "site", fields: [] });
  expect(global.status, global.text).toBe(201);
  fixture.globalBpId = global.body.blueprint.id;
  const foreign = await other.post("/collections", {
    name: "Foreign",
    handle: "foreign",
    routing: "f/:handle",
    blueprint: { handle: "foreign-bp", fields: [] },
  });
  expect(foreign.status, foreign.text).toBe(201);
  fixture.otherCollectionId = foreign.body.id;

  const pagedCollection = await paged.post("/collections", {
    name: "Inbox",
    handle: "inbox",
    routing: "inbox/:handle",
    blueprint: { handle: "inbox-bp", fields: [] },
  });
  expect(pagedCollection.status, pagedCollection.text).toBe(201);
  // Titles sort differently from handles and from creation order.
  const order = Array.from({ length: PAGED_COUNT }, (_, i) => ((i * 7) % PAGED_COUNT) + 1);
  expect(new Set(order).size).toBe(PAGED_COUNT);
  for (let i = 0; i < order.length; i += 5) {
    const batch = order.slice(i, i + 5).map((n) =>
      paged.post("/forms", {
        title: `Form ${pad(n)}`,
        handle: `f-${pad(PAGED_COUNT + 1 - n)}`,
        collection_handle: "inbox",
        blueprint_handle: "inbox-bp",
      }),
    );
    for (const response of await Promise.all(batch)) expect(response.status, response.text).toBe(201);
  }
});
afterAll(() => server?.stop());

describe("create", () => {
  it("creates from the required fields with 201, a handle from the title and every response field", async () => {
    const created = await client.post("/forms", contact({ title: "Contact us!" }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual(formShape("contact-us", "Contact us!"));
    expect(Math.abs(Date.parse(created.body.created_at) - Date.now())).toBeLessThan(60_000);
  });

  it("stores every writable field", async () => {
    const sent = {
      title: "Quote request",
      handle: "quote",
      collection_handle: "messages",
      blueprint_handle: "contact-bp",
      redirect_url: "/thanks",
      success_message: "Thanks, we will be in touch.",
      honeypot_enabled: true,
      spam_check_enabled: true,
    };
    const created = await client.post("/forms", sent);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ ...formShape("quote", "Quote request"), ...sent });
    expect((await client.get("/forms/quote")).body).toEqual(created.body);
  });

  it("accepts an absolute http(s) redirect_url", async () => {
    const created = await createForm(
      contact({ handle: "abs-redirect", redirect_url: "https://example.com/ok" }),
    );
    expect(created.redirect_url).toBe("https://example.com/ok");
  });

  it("takes the collection by clctn_ ID and the blueprint by blprt_ ID", async () => {
    const created = await createForm({
      title: "By IDs",
      collection_handle: fixture.ordersId,
      blueprint_handle: fixture.orderBpId,
    });
    expect(created).toMatchObject({
      handle: "by-ids",
      collection_handle: "orders",
      blueprint_handle: "order-bp",
      collection_id: fixture.ordersId,
      blueprint_id: fixture.orderBpId,
      fields: [{ handle: "item", display: "Item", type: "text", position: 0, options: {} }],
    });
  });

  it("ignores the read-only notification_enabled and notification_emails", async () => {
    const created = await createForm(
      contact({ handle: "no-notify", notification_enabled: true, notification_emails: "a@example.com" }),
    );
    expect(created.notification_enabled).toBe(false);
    expect(created.notification_emails).toBeNull();
  });

  it("always creates: an existing handle is a 422 on handle, sent or generated, and nothing is added", async () => {
    await createForm(contact({ title: "Feedback" }));
    const before = await formCount();
    expect422(await client.post("/forms", contact({ title: "Feedback" })), "handle");
    expect422(await client.post("/forms", contact({ title: "Other title", handle: "feedback" })), "handle");
    expect(await formCount()).toBe(before);
    expect((await client.get("/forms/feedback")).body.title).toBe("Feedback");
  });

  it("ends concurrent POSTs of one new handle with one 201 and 422s on handle", async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => client.post("/forms", contact({ handle: "race" }))),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) expect422(response, "handle");
    expect((await client.get("/forms?handle=race")).body.data).toHaveLength(1);
  });

  it("refuses an unknown collection (422, path collection_handle), by handle or ID", async () => {
    expect422(
      await client.post("/forms", contact({ handle: "c1", collection_handle: "ghost" })),
      "collection_handle",
    );
    expect422(
      await client.post("/forms", contact({ handle: "c2", collection_handle: "clctn_0000000000ghost" })),
      "collection_handle",
    );
    expectError(await client.get("/forms/c1"), 404);
    expectError(await client.get("/forms/c2"), 404);
  });

  it("treats another account's collection as unknown (422, path collection_handle)", async () => {
    expect422(
      await client.post("/forms", contact({ handle: "c3", collection_handle: fixture.otherCollectionId })),
      "collection_handle",
    );
    expect422(
      await client.post(
        "/forms",
        contact({ handle: "c4", collection_handle: "foreign", blueprint_handle: "foreign-bp" }),
      ),
      "collection_handle",
    );
  });

  it("refuses a blueprint that is not one of the collection's (422, path blueprint_handle)", async () => {
    const cases = [
      "order-bp", // another collection's
      fixture.orderBpId,
      "loose-bp", // no collection's
      fixture.looseBpId,
      "global:site", // a global's
      fixture.globalBpId,
      "no-such-bp",
      "blprt_0000000000ghost",
    ];
    for (const [index, blueprint] of cases.entries()) {
      const response = await client.post(
        "/forms",
        contact({ handle: `b${index}`, blueprint_handle: blueprint }),
      );
      expect422(response, "blueprint_handle");
      expectError(await client.get(`/forms/b${index}`), 404);
    }
  });

  it("reports the duplicate handle and the unknown collection together", async () => {
    await createForm(contact({ handle: "both" }));
    expect422(
      await client.post("/forms", contact({ handle: "both", collection_handle: "ghost" })),
      "handle",
      "collection_handle",
    );
  });

  it("requires title, collection_handle and blueprint_handle (422 on each)", async () => {
    expect422(
      await client.post("/forms", { collection_handle: "messages", blueprint_handle: "contact-bp" }),
      "title",
    );
    expect422(
      await client.post("/forms", { title: "No collection", blueprint_handle: "contact-bp" }),
      "collection_handle",
    );
    expect422(
      await client.post("/forms", { title: "No blueprint", collection_handle: "messages" }),
      "blueprint_handle",
    );
    expect422(await client.post("/forms", contact({ title: "   " })), "title");
    expect422(
      await client.post("/forms", contact({ title: "Bad refs", collection_handle: "" })),
      "collection_handle",
    );
    expect422(
      await client.post("/forms", contact({ title: "Bad refs", blueprint_handle: "" })),
      "blueprint_handle",
    );
  });

  it("validates handle, redirect_url, success_message and the booleans (422 naming the field)", async () => {
    expect422(await client.post("/forms", contact({ handle: "Bad Handle" })), "handle");
    expect422(await client.post("/forms", contact({ handle: "form_01m86qk4y29vy2ej45c6gzafpx" })), "handle");
    expect422(
      await client.post("/forms", contact({ handle: "ok-h", redirect_url: "javascript:alert(1)" })),
      "redirect_url",
    );
    expect422(
      await client.post("/forms", contact({ handle: "ok-h", redirect_url: "//evil.example" })),
      "redirect_url",
    );
    expect422(
      await client.post("/forms", contact({ handle: "ok-h", success_message: 5 })),
      "success_message",
    );
    expect422(
      await client.post("/forms", contact({ handle: "ok-h", honeypot_enabled: "yes" })),
      "honeypot_enabled",
    );
    expect422(
      await client.post("/forms", contact({ handle: "ok-h", spam_check_enabled: 1 })),
      "spam_check_enabled",
    );
    expectError(await client.get("/forms/ok-h"), 404);
  });
});

describe("read", () => {
  it("reads one form by prefix ID and by handle; unknown ones are 404", async () => {
    const created = await createForm(contact({ handle: "readable" }));
    const byId = await client.get(`/forms/${created.id}`);
    const byHandle = await client.get("/forms/readable");
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(created);
    expect(byHandle.body).toEqual(created);
    expectError(await client.get("/forms/form_0000000000ghost"), 404);
    expectError(await client.get("/forms/ghost"), 404);
  });

  it("takes its fields from the blueprint as it is now", async () => {
    const collection = await client.post("/collections", {
      name: "Signups",
      handle: "signups",
      routing: "signups/:handle",
      blueprint: { handle: "signup-bp", fields: [{ handle: "email", type: "text" }] },
    });
    expect(collection.status, collection.text).toBe(201);
    const form = await createForm({
      title: "Signup",
      collection_handle: "signups",
      blueprint_handle: "signup-bp",
    });
    expect(form.fields.map((field: { handle: string }) => field.handle)).toEqual(["email"]);
    const changed = await client.put("/blueprints/signup-bp", {
      fields: [
        { handle: "email", type: "text", display: "E-mail" },
        { handle: "city", type: "text" },
        { handle: "spam_status", type: "text" },
      ],
    });
    expect(changed.status, changed.text).toBe(200);
    const read = await client.get("/forms/signup");
    expect(read.body.fields).toEqual([
      { handle: "email", display: "E-mail", type: "text", position: 0, options: {} },
      { handle: "city", display: "City", type: "text", position: 1, options: {} },
    ]);
    expect(read.body.template_usage.example).toContain('name="fields[city]"');
  });
});

describe("template_usage", () => {
  it("gives a form_for example with one input per real field, named fields[<handle>]", async () => {
    const form = await createForm(contact({ handle: "usage", honeypot_enabled: true }));
    const usage = form.template_usage;
    expect(Object.keys(usage).sort()).toEqual([
      "available_field_properties",
      "description",
      "example",
      "important",
      "manual_field_example",
    ]);
    expect(usage.available_field_properties).toEqual(fieldProperties);
    const example: string = usage.example;
    expect(example.startsWith("{% form_for 'usage' %}")).toBe(true);
    expect(example.trimEnd().endsWith("{% endform_for %}")).toBe(true);
    for (const handle of ["full_name", "email", "message", "topic", "subscribe"]) {
      expect(example).toContain(`name="fields[${handle}]"`);
    }
    expect(example).not.toContain("spam_status");
    expect(example).toMatch(
      /<input type="text" [^>]*name="fields\[full_name\]" placeholder="Your name" required>/,
    );
    expect(example).toMatch(/<input type="email" [^>]*name="fields\[email\]" required>/);
    expect(example).toMatch(/<textarea [^>]*name="fields\[message\]"><\/textarea>/);
    expect(example).toContain("<small>Say &lt;hi&gt;</small>");
    expect(example).toMatch(/<select [^>]*name="fields\[topic\]">/);
    expect(example).toContain('<option value="sales">sales</option>');
    expect(example).toContain('<option value="support">support</option>');
    expect(example).toMatch(/<input type="checkbox" [^>]*name="fields\[subscribe\]" value="true">/);
    expect(example).toContain('<button type="submit">');
    expect(example).not.toContain('name="website"');

    expect(usage.manual_field_example).toContain("{% form_for 'usage' %}");
    expect(usage.manual_field_example).toContain("{% for field in form.fields %}");
    for (const property of [
      "name",
      "label",
      "input_type",
      "required",
      "options",
      "placeholder",
      "help_text",
    ]) {
      expect(usage.manual_field_example).toContain(`field.${property}`);
    }
    expect(usage.description).toContain("/cms/usage/submit");
    expect(usage.description).toContain("messages");
    expect(usage.important).toContain("fields[");
    expect(usage.important).toContain("full_name, email");
    expect(usage.important).toContain("website");
  });

  it("produces Liquid that a template accepts", async () => {
    const form = await createForm(contact({ handle: "pasteable" }));
    for (const [index, html] of [
      form.template_usage.example,
      form.template_usage.manual_field_example,
    ].entries()) {
      const template = await client.post("/templates", { handle: `form-usage-${index}`, html });
      expect(template.status, template.text).toBe(201);
    }
  });

  it("follows the form: handle, honeypot and a blueprint without fields", async () => {
    const blueprint = await client.post("/collections", {
      name: "Empty",
      handle: "empty-inbox",
      routing: "empty/:handle",
      blueprint: { handle: "empty-bp", fields: [] },
    });
    expect(blueprint.status, blueprint.text).toBe(201);
    const form = await createForm({
      title: "Bare",
      collection_handle: "empty-inbox",
      blueprint_handle: "empty-bp",
    });
    expect(form.fields).toEqual([]);
    expect(form.template_usage.example).toContain("{% form_for 'bare' %}");
    expect(form.template_usage.example).not.toContain("fields[");
    expect(form.template_usage.important).not.toContain("'website'");
    const renamed = await client.patch("/forms/bare", { handle: "bare-renamed", honeypot_enabled: true });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.template_usage.example).toContain("{% form_for 'bare-renamed' %}");
    expect(renamed.body.template_usage.important).toContain("'website'");
  });

  it("escapes field labels in the example", async () => {
    await client.post("/collections", {
      name: "Odd",
      handle: "odd",
      routing: "odd/:handle",
      blueprint: { handle: "odd-bp", fields: [{ handle: "q", type: "text", display: 'Say "{{ hi }}" <b>' }] },
    });
    const form = await createForm({ title: "Odd", collection_handle: "odd", blueprint_handle: "odd-bp" });
    expect(form.template_usage.example).toContain("Say &quot;&#123;&#123; hi &#125;&#125;&quot; &lt;b&gt;");
    const template = await client.post("/templates", {
      handle: "odd-usage",
      html: form.template_usage.example,
    });
    expect(template.status, template.text).toBe(201);
  });
});

describe("list", () => {
  it("returns page 1 by default: 20 forms sorted by title, with the full envelope", async () => {
    const list = await paged.get("/forms");
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(["data", "pagination"]);
    expect(list.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: PAGED_COUNT,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(list.body.data.map((form: { title: string }) => form.title)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Form ${pad(i + 1)}`),
    );
    expect(list.body.data[0]).toMatchObject({
      handle: `f-${pad(PAGED_COUNT)}`,
      collection_handle: "inbox",
      blueprint_handle: "inbox-bp",
      fields: [],
    });
  });

  it("pages: 20, then 5, then an empty page", async () => {
    const page2 = await paged.get("/forms?page=2");
    expect(page2.body.pagination).toEqual({
      page: 2,
      per_page: 20,
      total: PAGED_COUNT,
      total_pages: 2,
      next_page: null,
      prev_page: 1,
    });
    expect(page2.body.data.map((form: { title: string }) => form.title)).toEqual(
      Array.from({ length: 5 }, (_, i) => `Form ${pad(i + 21)}`),
    );
    const page3 = await paged.get("/forms?page=3");
    expect(page3.body.data).toEqual([]);
    expect(page3.body.pagination).toMatchObject({ page: 3, next_page: null, prev_page: 2 });
    expect422(await paged.get("/forms?page=0"), "page");
    expect422(await paged.get("/forms?page=abc"), "page");
  });

  it("filters by exact handle", async () => {
    const one = await paged.get("/forms?handle=f-07");
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]).toMatchObject({ handle: "f-07", title: `Form ${pad(PAGED_COUNT + 1 - 7)}` });
    expect(one.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 1,
      total_pages: 1,
      next_page: null,
      prev_page: null,
    });
    expect((await paged.get("/forms?handle=f-0")).body.data).toEqual([]);
    expect((await paged.get("/forms?handle=F-07")).body.data).toEqual([]);
  });
});

describe("update", () => {
  it("PUT changes only the sent fields", async () => {
    const created = await createForm(
      contact({ handle: "put-me", redirect_url: "/done", success_message: "Yay" }),
    );
    const updated = await client.put("/forms/put-me", { title: "Renamed", spam_check_enabled: true });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({
      ...created,
      title: "Renamed",
      spam_check_enabled: true,
      template_usage: expect.any(Object),
      updated_at: expect.stringMatching(ISO),
    });
    expect((await client.get("/forms/put-me")).body).toEqual(updated.body);
  });

  it("PATCH changes only the sent fields and addresses the form by ID", async () => {
    const created = await createForm(contact({ handle: "patch-me" }));
    const updated = await client.patch(`/forms/${created.id}`, {
      redirect_url: "https://example.com/thanks",
      success_message: "Got it",
      honeypot_enabled: true,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({
      id: created.id,
      handle: "patch-me",
      title: "Contact",
      redirect_url: "https://example.com/thanks",
      success_message: "Got it",
      honeypot_enabled: true,
      spam_check_enabled: false,
    });
  });

  it("clears redirect_url and success_message sent as null", async () => {
    await createForm(contact({ handle: "clear-me", redirect_url: "/x", success_message: "y" }));
    const cleared = await client.put("/forms/clear-me", { redirect_url: null, success_message: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ redirect_url: null, success_message: null });
  });

  it("ignores the read-only notification settings", async () => {
    await createForm(contact({ handle: "notify-ro" }));
    const updated = await client.patch("/forms/notify-ro", {
      notification_enabled: true,
      notification_emails: "x@example.com",
      fields: [],
      template_usage: {},
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ notification_enabled: false, notification_emails: null });
    expect(updated.body.fields).toEqual(contactFieldsOut);
  });

  it("renames the handle: the new one resolves, the old one is 404", async () => {
    const created = await createForm(contact({ handle: "old-form" }));
    const renamed = await client.put("/forms/old-form", { handle: "new-form" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.id).toBe(created.id);
    expect((await client.get("/forms/new-form")).body.id).toBe(created.id);
    expectError(await client.get("/forms/old-form"), 404);
  });

  it("refuses a handle another form has (422, path handle) and changes nothing", async () => {
    await createForm(contact({ handle: "taken-a" }));
    await createForm(contact({ handle: "taken-b", title: "B" }));
    expect422(await client.put("/forms/taken-b", { handle: "taken-a", title: "Changed" }), "handle");
    expect((await client.get("/forms/taken-b")).body.title).toBe("B");
    const same = await client.put("/forms/taken-b", { handle: "taken-b" });
    expect(same.status, same.text).toBe(200);
  });

  it("moves the form to another collection and blueprint sent together", async () => {
    await createForm(contact({ handle: "mover" }));
    const moved = await client.put("/forms/mover", {
      collection_handle: "orders",
      blueprint_handle: fixture.orderBpId,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      collection_handle: "orders",
      blueprint_handle: "order-bp",
      collection_id: fixture.ordersId,
      blueprint_id: fixture.orderBpId,
      fields: [{ handle: "item" }],
    });
  });

  it("refuses an unknown collection (422, path collection_handle) and changes nothing", async () => {
    await createForm(contact({ handle: "stay-put" }));
    expect422(
      await client.patch("/forms/stay-put", { collection_handle: "ghost", title: "X" }),
      "collection_handle",
    );
    expect422(
      await client.patch("/forms/stay-put", { collection_handle: "ghost", blueprint_handle: "order-bp" }),
      "collection_handle",
    );
    expect((await client.get("/forms/stay-put")).body).toMatchObject({
      title: "Contact",
      collection_handle: "messages",
    });
  });

  it("refuses a blueprint outside the collection, sent or kept (422, path blueprint_handle)", async () => {
    await createForm(contact({ handle: "keep-bp" }));
    // A new blueprint that is not one of the stored collection's.
    expect422(await client.put("/forms/keep-bp", { blueprint_handle: "order-bp" }), "blueprint_handle");
    expect422(await client.put("/forms/keep-bp", { blueprint_handle: "loose-bp" }), "blueprint_handle");
    expect422(await client.put("/forms/keep-bp", { blueprint_handle: "global:site" }), "blueprint_handle");
    // A new collection that the stored blueprint does not belong to.
    expect422(await client.put("/forms/keep-bp", { collection_handle: "orders" }), "blueprint_handle");
    // Both sent, not matching.
    expect422(
      await client.put("/forms/keep-bp", { collection_handle: "orders", blueprint_handle: "contact-bp" }),
      "blueprint_handle",
    );
    expect((await client.get("/forms/keep-bp")).body).toMatchObject({
      collection_handle: "messages",
      blueprint_handle: "contact-bp",
    });
    // The same collection and blueprint, sent again, are fine.
    const same = await client.put("/forms/keep-bp", {
      collection_handle: "messages",
      blueprint_handle: "contact-bp",
    });
    expect(same.status, same.text).toBe(200);
  });

  it("validates sent fields like create (422 naming the field)", async () => {
    await createForm(contact({ handle: "valid-upd" }));
    expect422(await client.put("/forms/valid-upd", { title: "" }), "title");
    expect422(await client.put("/forms/valid-upd", { handle: "No Way" }), "handle");
    expect422(await client.put("/forms/valid-upd", { redirect_url: "ftp://x" }), "redirect_url");
    expect422(await client.put("/forms/valid-upd", { honeypot_enabled: "true" }), "honeypot_enabled");
    expect((await client.get("/forms/valid-upd")).body.title).toBe("Contact");
  });

  it("404s PUT, PATCH and DELETE on an unknown form", async () => {
    expectError(await client.put("/forms/ghost", { title: "x" }), 404);
    expectError(await client.patch("/forms/form_0000000000ghost", { title: "x" }), 404);
    expectError(await client.delete("/forms/ghost"), 404);
  });
});

describe("delete", () => {
  it("answers 204 with an empty body; then the form is 404 and its handle free again", async () => {
    const created = await createForm(contact({ handle: "trash" }));
    const deleted = await client.delete(`/forms/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expectError(await client.get(`/forms/${created.id}`), 404);
    expectError(await client.get("/forms/trash"), 404);
    expectError(await client.delete("/forms/trash"), 404);
    await createForm(contact({ handle: "trash" }));
  });

  it("deletes by handle, leaving the collection, its blueprint and its entries", async () => {
    await createForm(contact({ handle: "by-handle" }));
    const entry = await client.post("/collections/messages/entries", { handle: "kept", title: "Kept" });
    expect(entry.status, entry.text).toBe(201);
    const deleted = await client.delete("/forms/by-handle");
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await client.get("/collections/messages")).status).toBe(200);
    expect((await client.get("/blueprints/contact-bp")).status).toBe(200);
    expect((await client.get("/collections/messages/entries/kept")).status).toBe(200);
  });

  it("goes with its collection when the collection is deleted", async () => {
    await client.post("/collections", {
      name: "Temp",
      handle: "temp-inbox",
      routing: "temp/:handle",
      blueprint: { handle: "temp-bp", fields: [] },
    });
    await createForm({ title: "Temp form", collection_handle: "temp-inbox", blueprint_handle: "temp-bp" });
    expect((await client.delete("/collections/temp-inbox")).status).toBe(204);
    expectError(await client.get("/forms/temp-form"), 404);
  });
});

describe("accounts", () => {
  it("answers 403 to another account's token on every form route, and changes nothing", async () => {
    const created = await createForm(contact({ handle: "guarded" }));
    const attempts: Array<[string, () => Promise<ApiResponse>]> = [
      ["GET /forms", () => otherOnMain.get("/forms")],
      ["GET /forms?handle", () => otherOnMain.get("/forms?handle=guarded")],
      ["GET /forms/:id", () => otherOnMain.get(`/forms/${created.id}`)],
      ["GET /forms/:handle", () => otherOnMain.get("/forms/guarded")],
      ["POST /forms", () => otherOnMain.post("/forms", contact({ handle: "intruder" }))],
      ["POST /forms {}", () => otherOnMain.post("/forms", {})],
      ["PUT /forms/:id", () => otherOnMain.put(`/forms/${created.id}`, { title: "Hijacked" })],
      ["PATCH /forms/:handle", () => otherOnMain.patch("/forms/guarded", { title: "Hijacked" })],
      ["DELETE /forms/:id", () => otherOnMain.delete(`/forms/${created.id}`)],
      ["GET unknown form", () => otherOnMain.get("/forms/ghost")],
    ];
    for (const [label, attempt] of attempts) {
      const response = await attempt();
      expect(response.status, `${label}: ${response.text}`).toBe(403);
      expectError(response, 403);
      expect(response.text).not.toContain("guarded");
    }
    expect((await client.get("/forms/guarded")).body).toEqual(created);
    expectError(await client.get("/forms/intruder"), 404);
  });

  it("answers 404 to this account's forms on another account's own path", async () => {
    const created = await createForm(contact({ handle: "private-form" }));
    expectError(await other.get(`/forms/${created.id}`), 404);
    expectError(await other.get("/forms/private-form"), 404);
    expectError(await other.put(`/forms/${created.id}`, { title: "x" }), 404);
    expectError(await other.delete("/forms/private-form"), 404);
    expect((await other.get("/forms?handle=private-form")).body.data).toEqual([]);
    expect((await other.get("/forms")).body.data).toEqual([]);
    expect((await client.get("/forms/private-form")).body).toEqual(created);
  });

  it("lets a read-scoped token read forms but not write them (403)", async () => {
    const created = await createForm(contact({ handle: "read-only" }));
    expect((await reader.get("/forms/read-only")).body).toEqual(created);
    expect((await reader.get("/forms?handle=read-only")).body.data).toEqual([created]);
    expectError(await reader.post("/forms", contact({ handle: "by-reader" })), 403);
    expectError(await reader.put("/forms/read-only", { title: "x" }), 403);
    expectError(await reader.delete("/forms/read-only"), 403);
    expect((await client.get("/forms/read-only")).body).toEqual(created);
  });
});
