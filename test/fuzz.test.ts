// Input fuzzing: property-based tests send thousands of random and hostile bodies to every write
// endpoint of the route table (POST, PUT and its PATCH alias): a valid body with some keys replaced by
// hostile values, wholly random objects, and raw bytes that are not a JSON object or not UTF-8. Every
// answer must come within a timeout and be a 2xx or a documented 4xx with the contract's error body,
// never a 5xx. The GraphQL mutations (the same resolvers) get hostile `input` variables too, a fifth as many
// cases, and must never answer a 5xx or an internal error. Visitors' form submissions to the public site get
// hostile fields, encodings and raw bytes, a tenth as many cases, and must answer a 303, a JSON 200 or a
// documented 4xx; the content queries for frontend apps get hostile filters, sorts, cursors and paths, a
// tenth as many cases, and must never answer a 5xx or an internal error; every GET route gets hostile query
// strings, a tenth as many cases, and must answer 200 or a documented 4xx; the public site gets hostile
// paths, queries, ranges and validators and must never answer a 5xx. Afterwards the server has logged
// no error, and records of the same account and of another account are unchanged.
// Each run sends a quarter of the 5,200 cases the embedded database takes in about a minute (half as many on
// PostgreSQL), so that the whole suite stays quick, with a seed of its own (the time it starts): runs
// together cover what one long run would, and no two runs send the same cases. The seed is printed on
// failure, and FUZZ_SEED replays it; FUZZ_CASES sets the number of cases (5200 for the long run).
// Cases run 16 at a time (fast-check runs one batch per property run), so a failure is not shrunk: the
// message names the request, and the seed replays the same cases.

import fc from "fast-check";
import {
  buildClientSchema,
  type GraphQLField,
  type GraphQLSchema,
  getIntrospectionQuery,
  getNamedType,
  isInputObjectType,
  isObjectType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Route, routes } from "../src/rest/routes.ts";
import { type Api, api, request } from "./helpers/api.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import {
  hostileKey,
  hostileString,
  hostileValue,
  multipartUpload,
  Pairs,
  rawBody,
  toJson,
} from "./helpers/hostile.ts";
import { startServer, type TestServer, usesPostgres } from "./helpers/server.ts";
import { siteRequest } from "./helpers/site.ts";
import { populateTenant, snapshotTenant, type TenantData } from "./helpers/tenant.ts";

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 30);
/** 1,300 on the embedded database; half as many on PostgreSQL, whose writes are slower. */
const CASES = Number(process.env.FUZZ_CASES ?? (usesPostgres ? 650 : 1_300));
/** GraphQL mutation cases, on top of the REST ones. */
const GRAPHQL_CASES = Math.round(CASES / 5);
/** Requests in flight at once. */
const BATCH = 16;
const REQUEST_TIMEOUT_MS = 15_000;
/** The 4xx statuses the contract and README document for a write with a valid token. */
const DOCUMENTED = new Set([400, 404, 409, 413, 422, 431]);

let server: TestServer;
let main: TestAccount;
let client: Api;
let otherClient: Api;
/** Records of the fuzzed account that no fuzzed request addresses. */
let sentinel: TenantData;
/** Records the fuzzed updates address. */
let target: TenantData;
let otherData: TenantData;
let sentinelBefore: string;
let otherBefore: string;
/** The public GraphQL schema, from introspection. */
let schema: GraphQLSchema;
/** Input field names of each mutation, from the schema. */
let inputFields: Map<string, string[]>;
let sent = 0;
let sentGraphQL = 0;

beforeAll(async () => {
  server = await startServer();
  const other = await createAccount(server, "Other");
  main = await createAccount(server, "Main");
  client = api(server, main);
  otherClient = api(server, other);
  [sentinel, target, otherData] = await Promise.all([
    populateTenant(client, "s"),
    populateTenant(client, "t"),
    populateTenant(otherClient, "o"),
  ]);
  sentinelBefore = await snapshotTenant(client, sentinel, false);
  otherBefore = await snapshotTenant(otherClient, otherData);
  inputFields = await mutationInputFields();
});

afterAll(async () => {
  await server?.stop();
});

async function mutationInputFields(): Promise<Map<string, string[]>> {
  const response = await request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${main.token}` },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  schema = buildClientSchema(response.body.data);
  const fields = new Map<string, string[]>();
  for (const [name, field] of Object.entries(schema.getMutationType()?.getFields() ?? {})) {
    const input = field.args.find((arg) => arg.name === "input");
    const type = input && getNamedType(input.type);
    if (type && isInputObjectType(type)) fields.set(name, Object.keys(type.getFields()));
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------
// Endpoints and bodies

interface Endpoint {
  method: "POST" | "PUT" | "PATCH";
  route: Route;
  /** The route's path with the target records' IDs. */
  path: string;
  /** The resource segment (`collections`, `items`, ...). */
  resource: string;
}

const segmentResource: Record<string, string> = {
  collections: "collection",
  entries: "entry",
  blueprints: "blueprint",
  templates: "template",
  navigations: "navigation",
  items: "navigationItem",
  forms: "form",
  globals: "global",
  assets: "asset",
  webhooks: "webhook",
};

/** The route's path with the target records' IDs. */
function targetPath(route: Route): string {
  const segments = route.path.split("/");
  return segments
    .map((segment, index) => {
      if (segment === ":account_id") return main.account_id;
      if (segment === ":collection_id") return target.ids.collection;
      if (segment === ":navigation_id") return target.ids.navigation;
      if (segment === ":delivery") return target.ids.delivery ?? segment;
      if (segment !== ":id") return segment;
      const resource = segmentResource[segments[index - 1] ?? ""];
      const id = resource && target.ids[resource];
      if (!id) throw new Error(`fuzz.test.ts does not know the record of ${route.path}: add it`);
      return id;
    })
    .join("/");
}

/**
 * POST and PUT routes that read a body. Actions on a record (a revision's or a trash item's restore, a
 * preview link) take none: their operations have no `input`, so a body changes nothing.
 */
function bodyRoutes(): Route[] {
  return routes.filter(
    (route) => (route.method === "POST" || route.method === "PUT") && inputFields.has(mutationName(route)),
  );
}

function mutationName(route: Route): string {
  return route.field.replace(/^Mutation\./, "");
}

function endpoints(): Endpoint[] {
  const list: Endpoint[] = [];
  for (const route of bodyRoutes()) {
    const segments = route.path.split("/");
    const path = targetPath(route);
    const resource = segments.filter((segment) => !segment.startsWith(":")).pop() ?? "";
    for (const method of route.method === "PUT" ? (["PUT", "PATCH"] as const) : (["POST"] as const)) {
      list.push({ method, route, path, resource });
    }
  }
  return list;
}

/** A valid body for the endpoint; `n` makes its handles unique. */
function baseBody(resource: string, n: number): Record<string, unknown> {
  const handle = `fuzz-${n}`;
  switch (resource) {
    case "collections":
      return { name: "Fuzz", handle, routing: `${handle}/:handle` };
    case "entries":
      return { handle, title: "Fuzz", body: "text", related: target.ids.entry, cover: target.ids.asset };
    case "blueprints":
      return { title: "Fuzz", handle, fields: [{ handle: "f", type: "text" }] };
    case "templates":
      return { template: { handle, title: "Fuzz", html: "<p>{{ entry.title }}</p>" } };
    case "navigations":
      return { title: "Fuzz", handle };
    case "items":
      return { title: `Fuzz ${n}`, url: "/fuzz" };
    case "forms":
      return {
        title: "Fuzz",
        handle,
        collection_handle: target.ids.collection,
        blueprint_handle: target.ids.inlineBlueprint,
      };
    case "globals":
      return {
        name: "Fuzz",
        handle: `fuzz_${n}`,
        fields: [{ handle: "tagline", type: "text" }],
        tagline: "x",
      };
    case "assets":
      return { asset: { filename: `fuzz-${n}.txt`, content_type: "text/plain", data: "ZnV6eg==" } };
    case "webhooks":
      return { url: `https://fuzz-${n}.invalid/hook`, events: ["entry.created"], description: "Fuzz" };
    default:
      throw new Error(`fuzz.test.ts has no body for ${resource}: add one`);
  }
}

/** The keys the endpoint knows: its input fields, and the target entries' and global's value fields. */
function knownKeys(endpoint: Endpoint): string[] {
  const name = endpoint.route.field.replace(/^Mutation\./, "");
  return [
    ...(inputFields.get(name) ?? []),
    "body",
    "related",
    "cover",
    "tagline",
    "fields",
    "asset",
    "template",
  ];
}

type Case =
  | { kind: "mutated"; overrides: [string, unknown][]; inner: boolean }
  | { kind: "random"; pairs: [string, unknown][] }
  | { kind: "raw"; raw: { bytes: Uint8Array; type: string | null } };

function caseArbitrary(endpoint: Endpoint): fc.Arbitrary<Case> {
  const known = knownKeys(endpoint);
  const pair = fc.tuple(hostileKey(known), hostileValue(known));
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({ overrides: fc.array(pair, { minLength: 1, maxLength: 4 }), inner: fc.boolean() })
        .map(({ overrides, inner }): Case => ({ kind: "mutated", overrides, inner })),
    },
    {
      weight: 2,
      arbitrary: fc.array(pair, { maxLength: 6 }).map((pairs): Case => ({ kind: "random", pairs })),
    },
    { weight: 1, arbitrary: rawBody.map((raw): Case => ({ kind: "raw", raw })) },
    // Uploads also take multipart bodies: hostile file names, folder paths, part types and bytes.
    {
      weight: endpoint.route.upload && endpoint.method === "POST" ? 3 : 0,
      arbitrary: multipartUpload.map((raw): Case => ({ kind: "raw", raw })),
    },
  );
}

/** A valid body's pairs with each override replacing its key (or added). */
function override(base: Record<string, unknown>, overrides: [string, unknown][]): Pairs {
  const entries: [string, unknown][] = Object.entries(base);
  for (const [key, value] of overrides) {
    const at = entries.findIndex(([existing]) => existing === key);
    if (at >= 0) entries[at] = [key, value];
    else entries.push([key, value]);
  }
  return new Pairs(entries);
}

let counter = 0;

/** The request body and content type of a case. */
function bodyOf(endpoint: Endpoint, fuzzCase: Case): { body: Uint8Array | string; type: string | null } {
  if (fuzzCase.kind === "raw") return { body: fuzzCase.raw.bytes, type: fuzzCase.raw.type };
  if (fuzzCase.kind === "random")
    return { body: toJson(new Pairs(fuzzCase.pairs)), type: "application/json" };
  const base = baseBody(endpoint.resource, ++counter);
  const wrapper = endpoint.route.wrapper;
  const inner = wrapper ? (base[wrapper] as Record<string, unknown>) : undefined;
  if (wrapper && inner && fuzzCase.inner) {
    return {
      body: toJson(override({ ...base, [wrapper]: {} }, [[wrapper, override(inner, fuzzCase.overrides)]])),
      type: "application/json",
    };
  }
  return { body: toJson(override(base, fuzzCase.overrides)), type: "application/json" };
}

// ---------------------------------------------------------------------------------------------------
// One request

/** What is wrong with an answer, if anything. */
function problemOf(status: number, type: string, text: string): string | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (!DOCUMENTED.has(status)) return `status ${status} is not a documented answer`;
  if (!type.includes("application/json")) return `a ${status} answer of type ${type}`;
  let body: { error?: unknown; details?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} answer that is not JSON`;
  }
  if (typeof body.error !== "string" || !Array.isArray(body.details))
    return "not the error body of the contract";
  const bad = body.details.find(
    (detail: { path?: unknown; message?: unknown }) =>
      typeof detail?.path !== "string" || typeof detail?.message !== "string",
  );
  if (bad) return "an error detail without string path and message";
  if (/node_modules|PrismaClient|SQLITE_|\.ts:\d+|\n\s+at /.test(text)) return "internals in the answer";
  return undefined;
}

async function send(endpoint: Endpoint, fuzzCase: Case): Promise<void> {
  const { body, type } = bodyOf(endpoint, fuzzCase);
  const headers: Record<string, string> = { authorization: `Bearer ${main.token}` };
  if (type) headers["content-type"] = type;
  const label = () => {
    const text = typeof body === "string" ? body : Buffer.from(body).toString("latin1");
    return `${endpoint.method} ${endpoint.path} (content-type ${type}) body[${text.length}]: ${JSON.stringify(text.slice(0, 300))}`;
  };
  let response: Response;
  try {
    response = await fetch(`${server.url}/v1${endpoint.path}`, {
      method: endpoint.method,
      headers,
      body: typeof body === "string" ? body : new Uint8Array(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`${label()}\n→ no answer within ${REQUEST_TIMEOUT_MS} ms (${error})`);
  }
  const text = await response.text();
  sent += 1;
  const problem = problemOf(response.status, response.headers.get("content-type") ?? "", text);
  if (problem) throw new Error(`${label()}\n→ ${response.status} ${text.slice(0, 500)}\n${problem}`);
}

/** Runs `run` on batches of BATCH cases from `arbitrary`; a failure names the seed to replay it with. */
async function inBatches<T>(
  what: string,
  seed: number,
  arbitrary: fc.Arbitrary<T>,
  cases: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(arbitrary, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      await Promise.all(batch.map(run));
    }),
    {
      seed,
      numRuns: Math.ceil(cases / BATCH),
      endOnFailure: true,
      reporter: (details) => {
        if (!details.failed) return;
        throw new Error(
          `fuzz failure on ${what}: reproduce with FUZZ_SEED=${SEED} ` +
            `(this property's seed ${details.seed}, run ${details.numRuns}):\n${details.errorInstance}`,
        );
      },
    },
  );
}

// ---------------------------------------------------------------------------------------------------
// GraphQL: the same resolvers, reached with hostile `input` variables.

/** The path segment and resource a mutation writes (`navigationItemCreate`: items, navigationItem). */
function resourceOfMutation(field: GraphQLField<unknown, unknown>): [string, string] | undefined {
  return Object.entries(segmentResource)
    .sort(([, a], [, b]) => b.length - a.length)
    .find(([, name]) => field.name.startsWith(name));
}

/** Arguments naming the target records, by name. */
function targetArgs(field: GraphQLField<unknown, unknown>): Record<string, string> {
  const resource = resourceOfMutation(field)?.[1] ?? "";
  const values: Record<string, string | undefined> = {
    account_id: main.account_id,
    collection_id: target.ids.collection,
    navigation_id: target.ids.navigation,
    id: target.ids[resource],
  };
  return Object.fromEntries(
    field.args.flatMap((arg) => (values[arg.name] ? [[arg.name, values[arg.name] as string]] : [])),
  );
}

/** A valid input for a mutation: the REST body of its resource, mapped as the REST transport maps it. */
function baseInput(field: GraphQLField<unknown, unknown>): Record<string, unknown> {
  const segment = resourceOfMutation(field)?.[0];
  const known = new Set(inputFields.get(field.name) ?? []);
  if (!segment) return {};
  const body = baseBody(segment, ++counter);
  const inner = (body.template ?? body.asset ?? body) as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(inner)) {
    if (known.has(key) && key !== "values") input[key] = value;
    else if (known.has("values")) values[key] = value;
  }
  if (Object.keys(values).length > 0) input.values = values;
  return input;
}

async function sendGraphQL(field: GraphQLField<unknown, unknown>, input: Pairs): Promise<void> {
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type}`).join(", ");
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const selection = isObjectType(getNamedType(field.type)) ? "{ __typename }" : "";
  const query = `mutation (${variables}) { ${field.name}(${passed}) ${selection} }`;
  const named = Object.entries(targetArgs(field)).map(
    ([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`,
  );
  const body = `{"query":${JSON.stringify(query)},"variables":{${[...named, `"input":${toJson(input)}`].join(",")}}}`;
  await postGraphQL(body, `${field.name} ${JSON.stringify(body.slice(0, 400))}`);
  sentGraphQL += 1;
}

/** Posts a GraphQL request with the fuzzed account's token: an answer in time, never a 5xx or internal error. */
async function postGraphQL(body: string, label: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${main.token}` },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`${label}\n→ no answer within ${REQUEST_TIMEOUT_MS} ms (${error})`);
  }
  const text = await response.text();
  if (response.status >= 500 || /INTERNAL_SERVER_ERROR|Unexpected error/.test(text)) {
    throw new Error(`${label}\n→ ${response.status} ${text.slice(0, 500)}`);
  }
}

// ---------------------------------------------------------------------------------------------------

describe("hostile bodies to every write endpoint", () => {
  it("covers every POST and PUT route of the route table, and PATCH", () => {
    const list = endpoints();
    expect(list.length).toBe(
      bodyRoutes().filter((route) => route.method === "POST").length +
        2 * bodyRoutes().filter((route) => route.method === "PUT").length,
    );
    // Every body-taking resource of the contract is among them.
    expect(new Set(list.map((endpoint) => endpoint.resource))).toEqual(
      new Set([
        "collections",
        "entries",
        "blueprints",
        "templates",
        "navigations",
        "items",
        "forms",
        "globals",
        "assets",
        "webhooks",
      ]),
    );
  });

  it("answers only 2xx or a documented 4xx with the error body, in time", async () => {
    const list = endpoints();
    for (const [index, endpoint] of list.entries()) {
      await inBatches(
        `${endpoint.method} ${endpoint.route.path}`,
        SEED + index,
        caseArbitrary(endpoint),
        CASES / list.length,
        (fuzzCase) => send(endpoint, fuzzCase),
      );
    }
    expect(sent).toBeGreaterThanOrEqual(CASES);
  }, 180_000);
});

describe("hostile input variables to every GraphQL mutation", () => {
  it("never answers a 5xx or an internal error", async () => {
    const mutations = Object.values(schema.getMutationType()?.getFields() ?? {}).filter((field) =>
      field.args.some((arg) => arg.name === "input"),
    );
    expect(mutations.length).toBeGreaterThan(10);
    for (const [index, field] of mutations.entries()) {
      const known = inputFields.get(field.name) ?? [];
      // Unknown keys stop a GraphQL input before any resolver runs: the input's own fields, mostly.
      const key =
        known.length > 0
          ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, hostileKey(known))
          : hostileKey(known);
      const pair = fc.tuple(key, hostileValue(known));
      // Mostly a valid input with a few fields replaced, so that the cases get past GraphQL's own checks.
      const input = fc.oneof(
        {
          weight: 3,
          arbitrary: fc.array(pair, { minLength: 1, maxLength: 3 }).map((o) => override(baseInput(field), o)),
        },
        { weight: 1, arbitrary: fc.array(pair, { maxLength: 6 }).map((entries) => new Pairs(entries)) },
      );
      await inBatches(
        `GraphQL ${field.name}`,
        SEED + 1000 + index,
        input,
        GRAPHQL_CASES / mutations.length,
        (pairs) => sendGraphQL(field, pairs),
      );
    }
    expect(sentGraphQL).toBeGreaterThanOrEqual(Math.min(GRAPHQL_CASES, mutations.length * BATCH));
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------
// Reads: hostile query strings on every GET route.

const QUERY_CASES = Math.round(CASES / 10);
/** Node's limit on the request line and headers together (README: 431 past it). */
const URL_LIMIT = 16 * 1024;

const queryParameter = fc.tuple(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom("page", "per_page", "handle", "published", "path", "collection_id", "flat"),
    },
    { weight: 1, arbitrary: hostileString.filter((name) => name.length < 200) },
  ),
  fc.oneof(
    { weight: 2, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.constantFrom("1e3", "0x10", "2.5", " 7", "-0", "99999999999999999999", "") },
    { weight: 3, arbitrary: hostileString },
  ),
);

let sentQueries = 0;

async function sendQuery(route: Route, parameters: [string, string][]): Promise<void> {
  const search = new URLSearchParams(parameters.map(([name, value]) => [name, wellFormed(value)]));
  const url = `${server.url}/v1${targetPath(route)}?${search}`;
  const label = () => `GET ${url.slice(0, 400)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${main.token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    // A request past Node's 16 KB is answered 431 and closed while the client may still be writing it.
    if (url.length > URL_LIMIT) return;
    throw new Error(`${label()}\n→ no answer within ${REQUEST_TIMEOUT_MS} ms (${error})`);
  }
  const text = await response.text();
  sentQueries += 1;
  const problem = problemOf(response.status, response.headers.get("content-type") ?? "", text);
  if (problem) throw new Error(`${label()}\n→ ${response.status} ${text.slice(0, 500)}\n${problem}`);
}

describe("hostile query strings to every GET route", () => {
  it("answers only 200 or a documented 4xx with the error body, in time", async () => {
    const reads = routes.filter((route) => route.method === "GET");
    for (const [index, route] of reads.entries()) {
      await inBatches(
        `GET ${route.path}`,
        SEED + 4000 + index,
        fc.array(queryParameter, { maxLength: 4 }),
        QUERY_CASES / reads.length,
        (parameters) => sendQuery(route, parameters),
      );
    }
    expect(sentQueries).toBeGreaterThanOrEqual(Math.min(QUERY_CASES, reads.length * BATCH));
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------
// The content queries for frontend apps: hostile filters, sorts, cursors, pages and paths.

const CONTENT_CASES = Math.round(CASES / 10);

const contentQuery = `query ($a: ID!, $c: ID!, $filter: [ContentFilter!], $sort: [ContentSort!], $page: Int,
  $per_page: Int, $first: Int, $after: String, $path: String, $handle: String) {
  list: contentEntries(account_id: $a, collection: $c, filter: $filter, sort: $sort, page: $page, per_page: $per_page) {
    data { id handle values } pagination { total }
  }
  connection: contentEntriesConnection(account_id: $a, collection: $c, filter: $filter, sort: $sort, first: $first, after: $after) {
    edges { cursor node { id values } } total
  }
  byPath: contentEntry(account_id: $a, path: $path) { id values }
  byHandle: contentEntry(account_id: $a, collection: $c, handle: $handle) { id }
}`;

const contentFieldName = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "id",
      "handle",
      "title",
      "content_path",
      "position",
      "created_at",
      "updated_at",
      "published_at",
      "body",
      "related",
      "cover",
    ),
  },
  { weight: 1, arbitrary: hostileString.filter((name) => name.length < 200) },
);

const filterArbitrary = fc
  .tuple(
    contentFieldName,
    fc.subarray(["eq", "ne", "in", "contains", "starts_with", "lt", "lte", "gt", "gte"], { maxLength: 3 }),
    fc.array(hostileValue(["field", "eq", "in"]), { minLength: 3, maxLength: 3 }),
    fc.array(hostileValue(["field", "eq", "in"]), { maxLength: 4 }),
    hostileString,
  )
  .map(([field, ops, values, list, text]) => {
    const entries: [string, unknown][] = [["field", field]];
    ops.forEach((op, index) => {
      if (op === "in") entries.push([op, list]);
      else if (op === "contains" || op === "starts_with") entries.push([op, text]);
      else entries.push([op, values[index]]);
    });
    return new Pairs(entries);
  });

const contentArbitrary = (collection: string) =>
  fc
    .record({
      c: fc.oneof({ weight: 4, arbitrary: fc.constant(collection) }, { weight: 1, arbitrary: hostileString }),
      filter: fc.option(fc.array(filterArbitrary, { maxLength: 4 }), { nil: undefined }),
      sort: fc.option(
        fc.array(
          fc.tuple(contentFieldName, fc.constantFrom("asc", "desc")).map(
            ([field, direction]) =>
              new Pairs([
                ["field", field],
                ["direction", direction],
              ]),
          ),
          { maxLength: 3 },
        ),
        { nil: undefined },
      ),
      // Mostly valid, so that the filters and sorts are reached.
      page: fc.option(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }) }, fc.integer()), {
        nil: undefined,
      }),
      per_page: fc.option(
        fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 100 }) }, fc.integer()),
        {
          nil: undefined,
        },
      ),
      first: fc.option(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 100 }) }, fc.integer()), {
        nil: undefined,
      }),
      after: fc.option(hostileString, { nil: undefined }),
      path: fc.option(hostileString, { nil: undefined }),
      handle: fc.option(hostileString, { nil: undefined }),
    })
    .map((variables) => new Pairs(Object.entries(variables).filter(([, value]) => value !== undefined)));

let sentContent = 0;

async function sendContentQuery(variables: Pairs): Promise<void> {
  const body = `{"query":${JSON.stringify(contentQuery)},"variables":${toJson(
    new Pairs([["a", main.account_id], ...variables.entries]),
  )}}`;
  await postGraphQL(body, `content queries ${body.slice(contentQuery.length, contentQuery.length + 600)}`);
  sentContent += 1;
}

describe("hostile arguments to the content queries", () => {
  it("never answers a 5xx or an internal error", async () => {
    await inBatches(
      "content queries",
      SEED + 3000,
      contentArbitrary(target.handles.collection ?? ""),
      CONTENT_CASES,
      sendContentQuery,
    );
    expect(sentContent).toBeGreaterThanOrEqual(Math.min(CONTENT_CASES, BATCH));
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------
// The public site's pages and files: hostile paths, queries and headers.

const SITE_CASES = Math.round(CASES / 10);

const pathSegment = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom("t-secret-blog", "t-secret-first", "page", "assets", "cms", "2", "0"),
  },
  {
    weight: 2,
    arbitrary: hostileString
      .filter((text) => text.length < 300)
      .map((text) => encodeURIComponent(wellFormed(text))),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("%", "%0", "%zz", "%00", "..", ".", "%2e%2e", "%2F", "\\", ";x=1", "~"),
  },
);

const siteArbitrary = fc.record({
  segments: fc.array(pathSegment, { maxLength: 4 }),
  query: fc.array(queryParameter, { maxLength: 3 }),
  range: fc.option(
    fc.oneof(
      fc
        .tuple(fc.integer({ min: -5, max: 50 }), fc.integer({ min: -5, max: 50 }))
        .map(([a, b]) => `bytes=${a}-${b}`),
      fc.constantFrom(
        "bytes=-3",
        "bytes=0-",
        "bytes=5-2",
        "bytes=0-1,3-4",
        "items=0-1",
        "bytes=99999999999999999999-",
      ),
      hostileString.filter((text) => /^[\x20-\x7e]*$/.test(text)),
    ),
    { nil: undefined },
  ),
  ifNoneMatch: fc.option(fc.constantFrom("*", '"x"', 'W/"y"', ""), { nil: undefined }),
  method: fc.constantFrom("GET", "GET", "GET", "HEAD"),
});

let sentSite = 0;

async function sendSite(visit: {
  segments: string[];
  query: [string, string][];
  range: string | undefined;
  ifNoneMatch: string | undefined;
  method: string;
}): Promise<void> {
  const search = new URLSearchParams(
    visit.query.map(([name, value]) => [name, wellFormed(value)]),
  ).toString();
  const path = `/${visit.segments.join("/")}${search ? `?${search}` : ""}`;
  const headers: Record<string, string> = {};
  if (visit.range !== undefined) headers.range = visit.range;
  if (visit.ifNoneMatch !== undefined) headers["if-none-match"] = visit.ifNoneMatch;
  const label = `${visit.method} ${path.slice(0, 300)} ${JSON.stringify(headers)}`;
  let answer: Awaited<ReturnType<typeof siteRequest>>;
  try {
    answer = await siteRequest(server, path, main.domain, {
      method: visit.method,
      headers,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
  } catch (error) {
    // A request past Node's 16 KB is answered 431 and closed while the client may still be writing it.
    if (path.length > URL_LIMIT) return;
    throw new Error(`${label}\n→ ${error}`);
  }
  sentSite += 1;
  if (answer.status >= 500) throw new Error(`${label}\n→ ${answer.status} ${answer.text.slice(0, 500)}`);
}

describe("hostile visits to the public site", () => {
  it("never answers a 5xx, in time", async () => {
    expect(target.assetUrl).toMatch(/^\/assets\//);
    await inBatches("site pages and files", SEED + 5000, siteArbitrary, SITE_CASES, sendSite);
    // The asset itself, with hostile ranges and validators.
    const assetSegments = target.assetUrl.split("/").slice(1);
    await inBatches(
      "site asset",
      SEED + 5001,
      siteArbitrary.map((visit) => ({ ...visit, segments: assetSegments })),
      SITE_CASES / 2,
      sendSite,
    );
    expect(sentSite).toBeGreaterThanOrEqual(Math.min(SITE_CASES, BATCH));
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------
// The public site's form submissions: no token, the account found by Host.

const SUBMISSION_CASES = Math.round(CASES / 10);

interface Submission {
  handle: string;
  pairs: [string, string][];
  encoding: "urlencoded" | "multipart" | "raw";
  raw: { bytes: Uint8Array; type: string | null };
  json: boolean;
}

const submissionField = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "fields[name]",
      "fields[message]",
      "name",
      "website",
      "redirect_url",
      "success_message",
    ),
  },
  { weight: 2, arbitrary: hostileString.map((key) => `fields[${key}]`) },
  { weight: 1, arbitrary: hostileString },
);

const submissionArbitrary = (formHandle: string): fc.Arbitrary<Submission> =>
  fc.record({
    handle: fc.oneof(
      { weight: 4, arbitrary: fc.constant(formHandle) },
      // Other handles; "", "." and ".." would name another path than the submit endpoint's.
      {
        weight: 1,
        arbitrary: hostileString.filter((handle) => !["", ".", ".."].includes(handle) && handle.length < 200),
      },
    ),
    pairs: fc.array(fc.tuple(submissionField, hostileString), { maxLength: 8 }),
    encoding: fc.constantFrom("urlencoded", "multipart", "raw"),
    raw: rawBody,
    json: fc.boolean(),
  });

async function submissionBody(submission: Submission): Promise<{ body: Uint8Array; type: string | null }> {
  if (submission.encoding === "raw") return { body: submission.raw.bytes, type: submission.raw.type };
  if (submission.encoding === "urlencoded") {
    const body = new URLSearchParams(submission.pairs).toString();
    return { body: new TextEncoder().encode(body), type: "application/x-www-form-urlencoded" };
  }
  const form = new FormData();
  for (const [key, value] of submission.pairs) form.append(key, value);
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), type: encoded.headers.get("content-type") };
}

/** The text with unpaired surrogates replaced, as a browser sends them (encodeURIComponent throws on them). */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

async function sendSubmission(submission: Submission): Promise<void> {
  const { body, type } = await submissionBody(submission);
  const path = `/cms/${encodeURIComponent(wellFormed(submission.handle))}/submit`;
  const headers: Record<string, string> = { accept: submission.json ? "application/json" : "text/html" };
  if (type) headers["content-type"] = type;
  const label = () =>
    `POST ${path} (${submission.encoding}, ${type}, json ${submission.json}) body[${body.length}]: ` +
    JSON.stringify(Buffer.from(body).toString("latin1").slice(0, 300));
  let answer: Awaited<ReturnType<typeof siteRequest>>;
  try {
    answer = await siteRequest(server, path, main.domain, {
      method: "POST",
      headers,
      body,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
  } catch (error) {
    throw new Error(`${label()}\n→ ${error}`);
  }
  sentSubmissions += 1;
  const contentType = String(answer.headers["content-type"] ?? "");
  // A browser is sent back to a page, or shown a page listing what to fix; a JSON client gets JSON.
  const success = submission.json ? 200 : 303;
  if (answer.status === success) return;
  const fail = (problem: string) => {
    throw new Error(`${label()}\n→ ${answer.status} ${answer.text.slice(0, 500)}\n${problem}`);
  };
  if (answer.status < 400) fail(`a ${answer.status} answer where success is ${success}`);
  if (!submission.json && answer.status === 422 && contentType.includes("text/html")) return;
  const problem = problemOf(answer.status, contentType, answer.text);
  if (problem) fail(problem);
}

let sentSubmissions = 0;

describe("hostile form submissions to the public site", () => {
  it("answers a 303, a JSON 200 or a documented 4xx with the error body, in time", async () => {
    await inBatches(
      "POST /cms/:handle/submit",
      SEED + 2000,
      submissionArbitrary(target.handles.form ?? ""),
      SUBMISSION_CASES,
      sendSubmission,
    );
    expect(sentSubmissions).toBeGreaterThanOrEqual(Math.min(SUBMISSION_CASES, BATCH));
  }, 120_000);
});

describe("afterwards", () => {
  it("the server is still healthy and logged no server error", async () => {
    expect((await request(`${server.url}/healthz`)).status).toBe(200);
    expect(server.output.filter((line) => /"level":"(error|fatal)"/.test(line))).toEqual([]);
  });

  it("left the same account's other records and another account's records unchanged", async () => {
    expect(await snapshotTenant(client, sentinel, false)).toBe(sentinelBefore);
    expect(await snapshotTenant(otherClient, otherData)).toBe(otherBefore);
  });
});
