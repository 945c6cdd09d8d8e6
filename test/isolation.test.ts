// Tenant isolation as a property: account A holds one of every resource; then every REST route
// of the route table (with its PATCH alias, create-by-handle updates, uploads and the site's asset path)
// and every root field of the public GraphQL schema (found by introspection) is called with account B's
// token on A's path, and on B's path with A's IDs and handles. None may succeed on A's records, no answer
// may hold anything of A's that the request did not itself name, and A's data must be unchanged after.
import {
  buildClientSchema,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  getIntrospectionQuery,
  getNamedType,
  isInputObjectType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../src/rest/routes.ts";
import { type Api, type ApiResponse, api, request } from "./helpers/api.ts";
import { expectErrorBody } from "./helpers/assertions.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { inputValue, operationFor } from "./helpers/graphql-probe.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGet } from "./helpers/site.ts";
import { populateTenant, snapshotTenant, type TenantData } from "./helpers/tenant.ts";

let server: TestServer;
let accountA: TestAccount;
let accountB: TestAccount;
let a: Api;
let b: Api;
let dataA: TenantData;
let dataB: TenantData;
let before: string;

beforeAll(async () => {
  server = await startServer();
  [accountA, accountB] = await Promise.all([createAccount(server, "A"), createAccount(server, "B")]);
  a = api(server, accountA);
  b = api(server, accountB);
  [dataA, dataB] = await Promise.all([populateTenant(a, "a"), populateTenant(b, "b")]);
  before = await snapshotTenant(a, dataA);
});

afterAll(async () => {
  await server?.stop();
});

/** The A markers in `answer` that the request did not name itself (an echo of one's own input is no leak). */
function leaked(answer: string, sent: string): string[] {
  return dataA.markers.filter((marker) => answer.includes(marker) && !sent.includes(marker));
}

function expectNoLeak(answer: string, sent: string, label: string): void {
  expect(leaked(answer, sent), `${label} leaked A's data: ${answer.slice(0, 500)}`).toEqual([]);
}

/**
 * `answer` without what B's own probes wrote into B's records naming A's handle as plain text: an entity
 * field's `options.collection` (blueprint options are free-form), a probe template's include of A's
 * template handle, and the warning that B's template names a partial B lacks. Concurrent probes decide which
 * body lands last, so a later read of B's own blueprints or templates may show it: B's data, not a leak.
 */
function withoutOwnEchoes(answer: string): string {
  const include = `{% render '${dataA.handles.template}' %}{% include '${dataA.handles.template}' %}`;
  const warning = `partial '${dataA.handles.template}' not found`;
  return answer
    .replaceAll(`"collection":"${dataA.handles.collection}"`, "")
    .replaceAll(include, "")
    .replaceAll(warning, "");
}

// ---------------------------------------------------------------------------------------------------
// REST

/** The resource a path parameter names, from the parameter or the collection segment before it. */
function resourceOf(path: string, param: string): string {
  if (param === "collection_id") return "collection";
  if (param === "revision") return "revision";
  if (param === "navigation_id") return "navigation";
  const segments = path.split("/");
  const segment = segments[segments.indexOf(`:${param}`) - 1];
  const bySegment: Record<string, string> = {
    collections: "collection",
    entries: "entry",
    blueprints: "blueprint",
    templates: "template",
    navigations: "navigation",
    items: "navigationItem",
    forms: "form",
    globals: "global",
    assets: "asset",
    trash: "trash",
    webhooks: "webhook",
    deliveries: "delivery",
  };
  const resource = segment && bySegment[segment];
  if (!resource) throw new Error(`isolation.test.ts does not know what ${path} names by :${param}: add it`);
  return resource;
}

/** A's IDs and handles that may stand for a resource in a path. */
function candidatesOf(data: TenantData, resource: string): string[] {
  const extra: Record<string, string[]> = {
    entry: [data.ids.secondEntry ?? ""],
    blueprint: [
      data.ids.inlineBlueprint ?? "",
      data.handles.inlineBlueprint ?? "",
      data.ids.globalBlueprint ?? "",
    ],
    navigationItem: [data.ids.childItem ?? ""],
    // Every record of A's has a first revision.
    revision: ["1"],
  };
  return [data.ids[resource], data.handles[resource], ...(extra[resource] ?? [])].filter(
    (value): value is string => Boolean(value),
  );
}

/** Every filling of a route's parameters: A's values throughout, and (on B's path) B's parents with A's children. */
function fillings(path: string, account: string, ownParents: boolean): string[] {
  const params = [...path.matchAll(/:(\w+)/g)]
    .map((match) => match[1] ?? "")
    .filter((param) => param !== "account_id");
  let paths = [path.replace(":account_id", account)];
  for (const param of params) {
    const resource = resourceOf(path, param);
    const values = candidatesOf(dataA, resource);
    // B's own parent: lists and creates below it take A's IDs in their bodies, updates A's child IDs.
    if (ownParents && param !== "id") values.push(...candidatesOf(dataB, resource).slice(0, 1));
    paths = paths.flatMap((filled) =>
      values.map((value) => filled.replace(`:${param}`, encodeURIComponent(value))),
    );
  }
  return paths;
}

/** Bodies for a write: plain valid ones, and ones pointing at A's records. */
function bodiesFor(path: string): unknown[] {
  const A = {
    ...dataA.handles,
    ...Object.fromEntries(Object.entries(dataA.ids).map(([k, v]) => [`${k}Id`, v])),
  };
  const B = dataB.handles;
  const resource = path
    .split("/")
    .filter((segment) => !segment.startsWith(":"))
    .pop();
  switch (resource) {
    case "collections":
      return [
        { name: "Probe", handle: "probe-coll", routing: "probe/:handle" },
        { name: "Probe", handle: "probe-coll", routing: "probe/:handle", blueprint_handle: A.blueprint },
        {
          name: "Probe",
          handle: "probe-coll",
          routing: "probe/:handle",
          blueprint_handle: A.inlineBlueprintId,
        },
        { name: "Probe", handle: "probe-coll", routing: "probe/:handle", template_handle: A.template },
        {
          name: "Probe",
          handle: "probe-coll",
          routing: "probe/:handle",
          index_template_handle: A.templateId,
        },
        {
          name: "Probe",
          handle: "probe-coll-2",
          routing: "probe2/:handle",
          blueprint: { handle: A.inlineBlueprint },
        },
        { name: A.collection, handle: A.collection, routing: "x/:handle" },
      ];
    case "entries":
      return [
        { handle: "probe-entry", title: "Probe" },
        { handle: "probe-entry", title: "Probe", related: A.entryId },
        { handle: "probe-entry", title: "Probe", related: `${A.collection}:${A.entry}` },
        { handle: "probe-entry", title: "Probe", related: A.entry },
        { handle: "probe-entry", title: "Probe", cover: A.assetId },
        { handle: "probe-entry", title: "Probe", template_handle: A.template },
        { handle: "probe-entry", title: "Probe", blueprint_handle: A.inlineBlueprint },
        { handle: A.entry, title: "Probe" },
      ];
    case "blueprints":
      return [
        { title: "Probe", handle: "probe-bp", fields: [{ handle: "x", type: "text" }] },
        { title: "Probe", handle: A.blueprint, fields: [] },
        {
          title: "Probe",
          handle: "probe-bp",
          fields: [{ handle: "e", type: "entity", options: { collection: A.collection } }],
        },
      ];
    case "templates":
      return [
        { template: { handle: "probe-tpl", html: "<p>probe</p>" } },
        {
          template: {
            handle: "probe-tpl",
            html: `{% render '${A.template}' %}{% include '${A.template}' %}`,
          },
        },
        { template: { handle: A.template, html: "x" } },
      ];
    case "navigations":
      return [
        { title: "Probe", handle: "probe-nav" },
        { title: "Probe", handle: A.navigation },
      ];
    case "items":
      return [
        { title: "Probe", url: "/probe" },
        { title: "Probe", collection_handle: A.collection, entry_handle: A.entry },
        { title: "Probe", collection_handle: A.collectionId, entry_handle: A.entryId },
        { title: "Probe", collection_handle: B.collection, entry_handle: A.entryId },
        { title: "Probe", url: "/probe", parent_id: A.navigationItemId },
        { title: A.navigation, url: `/${dataA.handles.collection}` },
      ];
    case "forms":
      return [
        {
          title: "Probe",
          handle: "probe-form",
          collection_handle: B.collection,
          blueprint_handle: B.inlineBlueprint,
        },
        {
          title: "Probe",
          handle: "probe-form",
          collection_handle: A.collection,
          blueprint_handle: A.inlineBlueprint,
        },
        {
          title: "Probe",
          handle: "probe-form",
          collection_handle: A.collectionId,
          blueprint_handle: A.inlineBlueprintId,
        },
        {
          title: "Probe",
          handle: "probe-form",
          collection_handle: B.collection,
          blueprint_handle: A.inlineBlueprintId,
        },
        {
          title: "Probe",
          handle: A.form,
          collection_handle: B.collection,
          blueprint_handle: B.inlineBlueprint,
        },
      ];
    case "globals":
      return [
        { name: "Probe", handle: "probe_global", fields: [{ handle: "t", type: "text" }], t: "x" },
        {
          name: "Probe",
          handle: "probe_global",
          fields: [{ handle: "e", type: "entity", options: { collection: A.collection } }],
          e: A.entry,
        },
        { name: "Probe", handle: "probe_global", fields: [{ handle: "e", type: "entity" }], e: A.entryId },
        { name: "Probe", handle: "probe_global", fields: [{ handle: "i", type: "image" }], i: A.assetId },
      ];
    case "assets":
      return [
        { asset: { filename: "probe.txt", data: Buffer.from("probe").toString("base64") } },
        { filename: "probe-moved.txt" },
        { asset: { filename: "probe.txt", path: "probe-dir" } },
      ];
    case "webhooks":
      return [{ url: "https://probe.invalid/hook", events: ["*"] }];
    case "restore":
    case "preview":
    case "rotate_secret":
    case "redeliver":
      return [{}];
    default:
      throw new Error(`isolation.test.ts has no bodies for ${path}: add them`);
  }
}

/** Whether a body names its record (handle, title, name) like one of A's. */
function namesLikeA(body: unknown): boolean {
  const record = body as Record<string, unknown>;
  const inner = (record.template ?? record.asset ?? record) as Record<string, unknown>;
  const blueprint = (inner.blueprint ?? {}) as Record<string, unknown>;
  return [inner.handle, inner.title, inner.name, blueprint.handle].some(
    (value) => typeof value === "string" && dataA.markers.includes(value),
  );
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  multipart?: boolean;
}

/** Every method a route answers: its own, PATCH for PUT (decisions.md), HEAD for GET. */
function methodsOf(method: string): string[] {
  if (method === "PUT") return ["PUT", "PATCH"];
  if (method === "GET") return ["GET", "HEAD"];
  return [method];
}

function callsFor(account: string, ownParents: boolean): Call[] {
  const calls: Call[] = [];
  for (const route of routes) {
    const paths = fillings(route.path, account, ownParents);
    for (const method of methodsOf(route.method)) {
      for (const path of paths) {
        if (method === "GET" || method === "HEAD" || method === "DELETE") {
          calls.push({ method, path });
          if (method === "GET" && !route.path.endsWith(":id")) {
            for (const handle of Object.values(dataA.handles))
              calls.push({ method, path: `${path}?handle=${encodeURIComponent(handle)}` });
            calls.push({ method, path: `${path}?all=true&page=1` });
          }
          continue;
        }
        for (const body of bodiesFor(route.path)) {
          // On B's own path, a create named like one of A's records makes B's own record of that name
          // (no leak), after which A's handles would rightly find it: those bodies go to A's path only.
          if (ownParents && namesLikeA(body)) continue;
          calls.push({ method, path, body });
        }
        if (route.upload) calls.push({ method, path, multipart: true });
      }
    }
  }
  // Reads first, then updates, then creates, then deletes: a leaking write must not hide a leaking read.
  const order = ["GET", "HEAD", "PUT", "PATCH", "POST", "DELETE"];
  return calls.sort((x, y) => order.indexOf(x.method) - order.indexOf(y.method));
}

function send(token: string, call: Call): Promise<ApiResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: BodyInit | undefined;
  if (call.multipart) {
    const form = new FormData();
    form.append("file", new Blob([Buffer.from("probe")], { type: "text/plain" }), "probe-upload.txt");
    body = form;
  } else if (call.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(call.body);
  }
  return request(`${server.url}/v1${call.path}`, { method: call.method, headers, body });
}

const sentText = (call: Call) => `${decodeURIComponent(call.path)} ${JSON.stringify(call.body ?? "")}`;
const label = (call: Call) => `${call.method} ${call.path} ${JSON.stringify(call.body ?? "")}`;

/** Runs calls a few at a time. */
async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(run));
  }
}

describe("REST", () => {
  it("refuses B's token on every route of A's path (403, nothing of A's)", async () => {
    const calls = callsFor(accountA.account_id, false);
    expect(calls.length).toBeGreaterThan(routes.length);
    await inBatches(calls, 8, async (call) => {
      const response = await send(accountB.token, call);
      if (call.method === "HEAD") expect(response.status, label(call)).toBe(403);
      else expectErrorBody(response, 403, label(call));
      expectNoLeak(response.text, sentText(call), label(call));
    });
  });

  it("reads A's data with A's token on every GET route (the probes are not vacuous)", async () => {
    const seen = new Map<string, boolean>();
    const calls = callsFor(accountA.account_id, false).filter((call) => call.method === "GET");
    await inBatches(calls, 8, async (call) => {
      const response = await send(accountA.token, call);
      const route = call.path.split("?")[0] ?? "";
      const template = routes.find((candidate) =>
        new RegExp(`^${candidate.path.replace(/:\w+/g, "[^/]+")}$`).test(route),
      );
      const found = response.status === 200 && leaked(response.text, sentText(call)).length > 0;
      const key = template?.path ?? route;
      seen.set(key, (seen.get(key) ?? false) || found);
    });
    // A revision list holds numbers, times and token IDs only (one revision shows A's state).
    const listsNoRecords = (path: string) => path.endsWith("/revisions");
    const vacuous = [...seen].filter(([path, found]) => !found && !listsNoRecords(path));
    expect(vacuous.map(([path]) => path)).toEqual([]);
    expect(seen.size).toBe(routes.filter((route) => route.method === "GET").length);
  });

  it("refuses A's read-scoped token on every write of A's path (403)", async () => {
    const token = await readToken();
    const calls = callsFor(accountA.account_id, false).filter(
      (call) => !["GET", "HEAD"].includes(call.method),
    );
    await inBatches(calls, 8, async (call) => {
      expectErrorBody(await send(token, call), 403, label(call));
    });
  });

  it("finds none of A's records from B's path by A's IDs and handles, and leaks nothing of A's", async () => {
    const calls = callsFor(accountB.account_id, true);
    await inBatches(calls, 8, async (call) => {
      const response = await send(accountB.token, call);
      expect(response.status, `${label(call)}: ${response.text}`).toBeLessThan(500);
      // A path naming one of A's records: never found. Lists and creates on B's own path may succeed.
      const path = call.path.split("?")[0] ?? "";
      if (dataA.markers.some((marker) => path.includes(encodeURIComponent(marker)))) {
        expect(response.status, `${label(call)}: ${response.text}`).toBeGreaterThanOrEqual(400);
      }
      expectNoLeak(withoutOwnEchoes(response.text), sentText(call), label(call));
    });
  });

  it("serves none of A's files on B's site", async () => {
    const paths = [
      dataA.assetUrl,
      `/assets/${dataA.ids.asset}`,
      `${dataA.assetUrl}?account=${accountA.account_id}`,
    ];
    for (const path of paths) {
      for (const headers of [{}, { authorization: `Bearer ${accountB.token}` }] as Record<string, string>[]) {
        const response = await siteGet(server, path, accountB.domain, headers);
        expect(response.status, `${path}: ${response.text}`).toBe(404);
        expect(response.text).not.toContain(dataA.assetText);
        expectNoLeak(response.text, path, path);
      }
    }
    // A's own site does serve it: the check above is not vacuous.
    expect((await siteGet(server, dataA.assetUrl, accountA.domain)).text).toBe(dataA.assetText);
  });

  it("renders none of A's pages, feeds or sitemap entries on B's site", async () => {
    const entryPath = `/${dataA.handles.collection}/${dataA.handles.entry}`;
    for (const path of [entryPath, `/${dataA.handles.collection}`, "/sitemap.xml", "/robots.txt", "/"]) {
      const response = await siteGet(server, path, accountB.domain);
      expect(response.status, `${path}: ${response.text}`).toBeLessThan(500);
      if (path === entryPath) expect(response.status).toBe(404);
      expectNoLeak(response.text, path, `B's site ${path}`);
    }
    // B's template naming A's template finds nothing of A's (templates are looked up in B's account).
    const include = `{% render '${dataA.handles.template}' %}{% include '${dataA.handles.template}' %}`;
    const probe = await b.put(`/templates/${dataB.handles.template}`, { template: { html: `B:${include}` } });
    expect(probe.status, probe.text).toBe(200);
    try {
      const bEntry = await siteGet(
        server,
        `/${dataB.handles.collection}/${dataB.handles.entry}`,
        accountB.domain,
      );
      expectNoLeak(bEntry.text, include, "B's page including A's template");
    } finally {
      // B's own answers must not carry A's handle from here on (the GraphQL checks list B's templates).
      await b.put(`/templates/${dataB.handles.template}`, { template: { html: "<p>B-SECRET-HTML</p>" } });
    }
    // A's own site renders the entry with A's template: the check above is not vacuous.
    const own = await siteGet(server, entryPath, accountA.domain);
    expect(own.status, own.text).toBe(200);
    expect(own.text).toContain("A-SECRET-HTML");
  });
});

/** A read-scoped token of account A. */
async function readToken(): Promise<string> {
  const result = await cms(server, [
    "token",
    "create",
    "--account",
    accountA.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout).token;
}

// ---------------------------------------------------------------------------------------------------
// GraphQL

let publicSchema: GraphQLSchema;

function graphql(token: string, query: string, variables: Record<string, unknown>): Promise<ApiResponse> {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
}

const resources = [
  "navigationItem",
  "navigation",
  "collection",
  "entry",
  "entries",
  "blueprint",
  "template",
  "form",
  "global",
  "asset",
  "trash",
  "webhook",
];

/** The resource a root field is about, from its name (`entryRoutingUpdate`, `contentEntry` -> entry). */
function resourceOfField(name: string): string | undefined {
  const bare = name.replace(/^content([A-Z])/, (_, letter: string) => letter.toLowerCase());
  const found = resources.find((resource) => bare.startsWith(resource));
  return found === "entries" ? "entry" : found;
}

/** A's values (and on B's own account B's parent too) for an argument that names a record. */
function argCandidates(field: string, arg: GraphQLArgument, own: boolean): string[] | undefined {
  const type = getNamedType(arg.type).name;
  if (type !== "ID" && type !== "String") return undefined;
  // Creates and lists below B's own parent take A's IDs in their input.
  const parent = (resource: string) => [
    ...candidatesOf(dataA, resource),
    ...(own ? candidatesOf(dataB, resource).slice(0, 1) : []),
  ];
  if (arg.name === "collection_id" || arg.name === "collection") return parent("collection");
  if (arg.name === "navigation_id") return parent("navigation");
  if (arg.name === "id" || arg.name === "handle") {
    const resource = resourceOfField(field);
    if (resource) return candidatesOf(dataA, resource);
  }
  if (arg.name === "account_id") return undefined;
  // An argument this test does not know (a path, a cursor, a slug...): A's handles, IDs and paths.
  return [
    dataA.handles.entry ?? "",
    dataA.ids.entry ?? "",
    dataA.handles.collection ?? "",
    `/${dataA.handles.collection}/${dataA.handles.entry}`,
  ];
}

/** Required input fields: a fresh handle of one's own, B's parents, fillers that pass validation. */
function basePick(name: string): unknown {
  const picks: Record<string, unknown> = {
    handle: "probe_gql",
    routing: "probe-gql/:handle",
    collection_handle: dataB.handles.collection,
    blueprint_handle: dataB.handles.inlineBlueprint,
    data: Buffer.from("probe").toString("base64"),
    filename: "probe-gql.txt",
    fields: [{ handle: "probe_field", type: "text" }],
    html: "<p>probe</p>",
    url: "/probe",
  };
  return picks[name];
}

/** Input fields that point at other records, with A's records, one at a time. */
function referencesToA(): Record<string, unknown[]> {
  const A = dataA.handles;
  const ids = dataA.ids;
  return {
    collection_handle: [A.collection, ids.collection],
    blueprint_handle: [A.inlineBlueprint, ids.blueprint],
    template_handle: [A.template],
    layout_handle: [ids.template],
    index_template_handle: [A.template],
    entry_handle: [A.entry, ids.entry],
    parent_id: [ids.navigationItem],
    values: [
      { related: ids.entry },
      { related: `${A.collection}:${A.entry}` },
      { cover: ids.asset },
      { body: "probe", tagline: "probe" },
    ],
    html: [`{% render '${A.template}' %}{% include '${A.template}' %}`],
  };
}

/** A valid input, and one variant per reference field of the input type pointing at A's record. */
function inputVariants(type: GraphQLInputType): unknown[] {
  const base = inputValue(type, basePick, "input") as Record<string, unknown>;
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return [base];
  const fields = named.getFields();
  const variants: unknown[] = [base];
  for (const [key, values] of Object.entries(referencesToA())) {
    if (key in fields) for (const value of values) variants.push({ ...base, [key]: value });
  }
  return variants;
}

/** Argument sets for a field: every combination of A's candidates for the arguments that name records. */
function argumentSets(field: GraphQLField<unknown, unknown>, account: string): Record<string, unknown>[] {
  let sets: Record<string, unknown>[] = [{}];
  for (const arg of field.args) {
    if (arg.name === "account_id") {
      sets = sets.map((set) => ({ ...set, account_id: account }));
      continue;
    }
    const named = argCandidates(field.name, arg, account === accountB.account_id);
    // An optional argument is also left out: arguments may exclude each other (a path or a handle).
    const candidates = named && !isRequired(arg.type) ? [undefined, ...named] : named;
    const values: unknown[] =
      candidates ??
      (arg.name === "input"
        ? inputVariants(arg.type)
        : isRequired(arg.type)
          ? [inputValue(arg.type, basePick, arg.name)]
          : []);
    if (values.length > 0) {
      sets = sets.flatMap((set) =>
        values.map((value) => (value === undefined ? set : { ...set, [arg.name]: value })),
      );
    }
  }
  return sets.slice(0, 120);
}

const isRequired = (type: unknown) => String(type).endsWith("!");

interface GraphQLCall {
  kind: "query" | "mutation";
  field: GraphQLField<unknown, unknown>;
  variables: Record<string, unknown>;
}

function graphqlCalls(account: string): GraphQLCall[] {
  const calls: GraphQLCall[] = [];
  for (const kind of ["query", "mutation"] as const) {
    const root = kind === "query" ? publicSchema.getQueryType() : publicSchema.getMutationType();
    for (const field of Object.values(root?.getFields() ?? {})) {
      for (const variables of argumentSets(field, account)) calls.push({ kind, field, variables });
    }
  }
  // Queries first, then updates, then creates, then deletes.
  const rank = (call: GraphQLCall) =>
    call.kind === "query" ? 0 : /Delete$/.test(call.field.name) ? 3 : /Create$/.test(call.field.name) ? 2 : 1;
  return calls.sort((x, y) => rank(x) - rank(y));
}

/** Whether any argument of the call names one of A's records. */
const namesARecord = (call: GraphQLCall) =>
  Object.entries(call.variables).some(
    ([name, value]) =>
      (name === "id" || (name.endsWith("_id") && name !== "account_id")) &&
      typeof value === "string" &&
      dataA.markers.includes(value),
  );

/** Query fields that answer from their arguments alone: the account check is all they have to show. */
const readsNoRecords = new Set([
  "templateValidate",
  // A's theme is whole (no issue names a record), A made no import job, and the token's own accounts
  // take no account_id: the refusal checks below are what these show.
  "themeValidate",
  "importJob",
  "tokenAccounts",
  // A revision list is numbers, times and token IDs; one revision (entryRevision) shows A's state.
  "entryRevisions",
  "globalRevisions",
  "templateRevisions",
]);

describe("GraphQL", () => {
  beforeAll(async () => {
    const response = await graphql(accountB.token, getIntrospectionQuery(), {});
    expect(response.status, response.text).toBe(200);
    publicSchema = buildClientSchema(response.body.data);
  });

  it("reads A's data with A's token through every query field (the probes are not vacuous)", async () => {
    const seen = new Map<string, boolean>();
    const calls = graphqlCalls(accountA.account_id).filter(
      (call) => call.kind === "query" && !readsNoRecords.has(call.field.name),
    );
    await inBatches(calls, 8, async (call) => {
      const response = await graphql(accountA.token, operationFor(call.kind, call.field), call.variables);
      const found = leaked(response.text, JSON.stringify(call.variables)).length > 0;
      seen.set(call.field.name, (seen.get(call.field.name) ?? false) || found);
    });
    expect([...seen].filter(([, found]) => !found).map(([name]) => name)).toEqual([]);
  });

  it("refuses B's token on every root field with A's account_id (nothing of A's)", async () => {
    const calls = graphqlCalls(accountA.account_id);
    expect(calls.length).toBeGreaterThan(routes.length);
    await inBatches(calls, 8, async (call) => {
      const query = operationFor(call.kind, call.field);
      const response = await graphql(accountB.token, query, call.variables);
      const text = `${call.field.name} ${JSON.stringify(call.variables)}: ${response.text}`;
      expect(response.status, text).toBeLessThan(500);
      if (call.field.args.some((arg) => arg.name === "account_id")) {
        expect(response.body?.data?.[call.field.name] ?? null, text).toBeNull();
        expect(response.body?.errors?.[0]?.extensions?.code, text).toBe("FORBIDDEN");
      }
      expectNoLeak(response.text, JSON.stringify(call.variables), text);
    });
  });

  it("refuses B's token and A's read-scoped token before looking at the input (403, not 422)", async () => {
    const token = await readToken();
    const invalid = { name: "", handle: "Not A Handle!", routing: "no-handle-token", index_per_page: -1 };
    const query = `mutation ($a: ID!, $input: CollectionCreateInput!) {
      collectionCreate(account_id: $a, input: $input) { created }
    }`;
    for (const caller of [accountB.token, token]) {
      const response = await graphql(caller, query, { a: accountA.account_id, input: invalid });
      expect(response.body?.errors?.[0]?.extensions?.code, response.text).toBe("FORBIDDEN");
      expect(response.body?.data ?? null).toBeNull();
    }
    // A's own write token is told what is wrong with the input.
    const own = await graphql(accountA.token, query, { a: accountA.account_id, input: invalid });
    expect(own.body?.errors?.[0]?.extensions?.code, own.text).toBe("UNPROCESSABLE_ENTITY");
  });

  it("refuses A's read-scoped token on every mutation of A's account", async () => {
    const token = await readToken();
    const calls = graphqlCalls(accountA.account_id).filter((call) => call.kind === "mutation");
    await inBatches(calls, 8, async (call) => {
      const response = await graphql(token, operationFor(call.kind, call.field), call.variables);
      const text = `${call.field.name}: ${response.text}`;
      expect(response.body?.data?.[call.field.name] ?? null, text).toBeNull();
      expect(response.body?.errors?.[0]?.extensions?.code, text).toBe("FORBIDDEN");
    });
  });

  it("finds none of A's records from B's account by A's IDs and handles, and leaks nothing of A's", async () => {
    const calls = graphqlCalls(accountB.account_id);
    await inBatches(calls, 8, async (call) => {
      const response = await graphql(accountB.token, operationFor(call.kind, call.field), call.variables);
      const text = `${call.field.name} ${JSON.stringify(call.variables)}: ${response.text}`;
      expect(response.status, text).toBeLessThan(500);
      if (namesARecord(call)) expect(response.body?.data?.[call.field.name] ?? null, text).toBeNull();
      expectNoLeak(withoutOwnEchoes(response.text), JSON.stringify(call.variables), text);
    });
  });
});

describe("afterwards", () => {
  it("A's data is unchanged, read with A's token", async () => {
    expect(await snapshotTenant(a, dataA)).toBe(before);
  });
});
