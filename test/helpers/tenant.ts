// One account holding one of every resource, with distinctive handles and values, so that a test can tell
// whether any of it shows up where it must not (tenant isolation) or changed when it must not (fuzzing).
import { expect } from "vitest";
import type { Api, ApiResponse } from "./api.ts";

export interface TenantData {
  /** Prefix IDs by resource (`collection`, `entry`, `blueprint`, ...). */
  ids: Record<string, string>;
  /** Handles by resource (items have none). */
  handles: Record<string, string>;
  /** Every ID, handle and value of the account that no other account's answer may contain. */
  markers: string[];
  /** The site path the asset is served at. */
  assetUrl: string;
  /** The asset's bytes, as text. */
  assetText: string;
}

async function created(pending: Promise<ApiResponse>, what: string): Promise<any> {
  const response = await pending;
  expect(response.status, `${what}: ${response.text}`).toBe(201);
  return response.body;
}

/** Creates the resources in `client`'s account; `tag` (lowercase letters) makes every handle and value unique. */
export async function populateTenant(client: Api, tag: string): Promise<TenantData> {
  const value = (name: string) => `${tag.toUpperCase()}-SECRET-${name}`;
  // First, so that every record made below has an event in its log. Its host never resolves (.invalid):
  // deliveries wait in the log, retried, and nothing leaves the machine.
  const webhook = await created(
    client.post("/webhooks", {
      url: `https://${tag}-secret-hooks.invalid/receive`,
      events: ["*"],
      description: value("WEBHOOK"),
    }),
    "webhook",
  );
  const assetText = value("BYTES");
  const asset = await created(
    client.post("/assets", {
      asset: {
        filename: `${tag}-secret-file.txt`,
        path: `${tag}-secret-dir`,
        content_type: "text/plain",
        data: Buffer.from(assetText).toString("base64"),
      },
    }),
    "asset",
  );
  const template = await created(
    client.post("/templates", {
      template: { handle: `${tag}-secret-post`, title: value("TEMPLATE"), html: `<p>${value("HTML")}</p>` },
    }),
    "template",
  );
  const blueprint = await created(
    client.post("/blueprints", {
      title: value("BLUEPRINT"),
      handle: `${tag}-secret-blueprint`,
      fields: [{ handle: `${tag}_secret_field`, type: "text" }],
    }),
    "blueprint",
  );
  const collection = await created(
    client.post("/collections", {
      name: value("COLLECTION"),
      handle: `${tag}-secret-blog`,
      routing: `${tag}-secret-blog/:handle`,
      template_handle: template.handle,
      blueprint: {
        title: value("INLINE"),
        handle: `${tag}-secret-inline`,
        fields: [
          { handle: "body", type: "text" },
          { handle: "related", type: "entity" },
          { handle: "cover", type: "image" },
        ],
      },
    }),
    "collection",
  );
  const entries = `/collections/${collection.handle}/entries`;
  const first = await created(
    client.post(entries, { handle: `${tag}-secret-first`, title: value("FIRST"), body: value("BODY") }),
    "entry",
  );
  const second = await created(
    client.post(entries, {
      handle: `${tag}-secret-second`,
      title: value("SECOND"),
      related: first.id,
      cover: asset.id,
    }),
    "entry",
  );
  const navigation = await created(
    client.post("/navigations", { title: value("NAV"), handle: `${tag}-secret-nav` }),
    "navigation",
  );
  const items = `/navigations/${navigation.handle}/items`;
  const item = await created(
    client.post(items, {
      title: value("ITEM"),
      collection_handle: collection.handle,
      entry_handle: first.handle,
    }),
    "item",
  );
  const child = await created(
    client.post(items, { title: value("CHILD"), url: `/${tag}-secret-url`, parent_id: item.id }),
    "child item",
  );
  const form = await created(
    client.post("/forms", {
      title: value("FORM"),
      handle: `${tag}-secret-form`,
      collection_handle: collection.handle,
      blueprint_handle: collection.blueprint_handles[0],
      success_message: value("THANKS"),
    }),
    "form",
  );
  const global = await created(
    client.post("/globals", {
      name: value("GLOBAL"),
      handle: `${tag}_secret_global`,
      fields: [{ handle: "tagline", type: "text" }],
      tagline: value("TAGLINE"),
    }),
    "global",
  );
  // A deleted record: the account's trash holds one item.
  const trashed = await created(
    client.post("/templates", { handle: `${tag}-secret-trashed`, title: value("TRASHED"), html: "x" }),
    "trashed template",
  );
  expect((await client.delete(`/templates/${trashed.id}`)).status).toBe(204);
  const trash = (await client.get("/trash")).body.data.find((item: any) => item.record_id === trashed.id);
  const [delivery] = (await client.get(`/webhooks/${webhook.id}/deliveries`)).body.data;
  expect(delivery?.id, "the webhook's first delivery").toMatch(/^msg_/);
  // Off from here: the tests' thousands of writes need no events (test/webhooks*.test.ts has them).
  expect((await client.put(`/webhooks/${webhook.id}`, { enabled: false })).status).toBe(200);
  const ids = {
    collection: collection.id,
    entry: first.id,
    secondEntry: second.id,
    blueprint: blueprint.id,
    inlineBlueprint: collection.blueprints[0].id,
    template: template.id,
    navigation: navigation.id,
    navigationItem: item.id,
    childItem: child.id,
    form: form.id,
    global: global.id,
    globalBlueprint: global.blueprint.id,
    asset: asset.id,
    trash: trash.id,
    trashedTemplate: trashed.id,
    webhook: webhook.id,
    delivery: delivery.id,
  };
  const handles = {
    collection: collection.handle,
    entry: first.handle,
    secondEntry: second.handle,
    blueprint: blueprint.handle,
    inlineBlueprint: collection.blueprints[0].handle,
    template: template.handle,
    navigation: navigation.handle,
    form: form.handle,
    global: global.handle,
    asset: asset.filename,
  };
  const values = [
    "BYTES",
    "TEMPLATE",
    "HTML",
    "BLUEPRINT",
    "COLLECTION",
    "INLINE",
    "FIRST",
    "BODY",
    "SECOND",
    "NAV",
    "ITEM",
    "CHILD",
    "FORM",
    "THANKS",
    "GLOBAL",
    "TAGLINE",
    "TRASHED",
    "WEBHOOK",
  ].map(value);
  const markers = [
    ...Object.values(ids),
    ...Object.values(handles),
    ...values,
    `${tag}-secret-dir`,
    `${tag}-secret-url`,
    `${tag}_secret_field`,
    `${tag}-secret-trashed`,
    `${tag}-secret-hooks`,
  ];
  return { ids, handles, markers, assetUrl: asset.url, assetText };
}

/**
 * Everything the account holds, read with its own token: every single record and, unless `lists` is
 * false (the account has other records that may change), the lists.
 */
export async function snapshotTenant(client: Api, data: TenantData, lists = true): Promise<string> {
  const { handles: h, ids } = data;
  const paths = [
    "/collections",
    `/collections/${h.collection}`,
    `/collections/${h.collection}/entries`,
    `/collections/${h.collection}/entries/${h.entry}`,
    `/collections/${h.collection}/entries/${h.secondEntry}`,
    "/blueprints",
    `/blueprints/${h.blueprint}`,
    "/templates",
    `/templates/${h.template}`,
    "/navigations",
    `/navigations/${h.navigation}`,
    `/navigations/${h.navigation}/items?all=true`,
    `/navigations/${h.navigation}/items/${ids.navigationItem}`,
    "/forms",
    `/forms/${h.form}`,
    "/globals",
    `/globals/${h.global}`,
    "/assets",
    `/assets/${ids.asset}`,
    "/trash",
    "/webhooks",
    `/webhooks/${ids.webhook}`,
  ];
  const read = lists ? paths : paths.filter((path) => !isList(path));
  const answers = await Promise.all(read.map((path) => client.get(path)));
  for (const [index, answer] of answers.entries()) {
    expect(answer.status, `${read[index]}: ${answer.text}`).toBe(200);
  }
  return answers.map((answer, index) => `${read[index]} ${answer.text}`).join("\n");
}

/** A list path (collection paths have an odd number of segments: `/forms`, `/collections/x/entries`). */
const isList = (path: string) => (path.split("?")[0] ?? "").split("/").length % 2 === 0;
