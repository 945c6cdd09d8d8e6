// The measured workloads: each is an autocannon run against the server (10 connections, 10 s by default,
// BENCH_DURATION) after a warm-up of 2,000 requests (BENCH_WARMUP_REQUESTS): a read workload that cycles
// through 1,000 entries has then read each of them twice. Writes warm up for 2 s (BENCH_WARMUP).
import autocannon from "autocannon";
import type { Seeded } from "./seed.ts";

export interface Workload {
  name: string;
  title: string;
  /** autocannon request options; `setupRequest` may vary the request per call. */
  request: (seeded: Seeded) => RequestOptions;
  /** Adds data: warmed up for a few seconds rather than a number of requests. */
  writes?: boolean;
  /** What is wrong with a probe's answer (JSON) for what the title says, if anything. */
  expect?: (body: any) => string | undefined;
}

/** The first entry's author is expanded (an object with its title), not an entry ID. */
const authorExpanded = (entry: any): string | undefined =>
  typeof entry?.author === "object" && entry.author && "title" in entry.author
    ? undefined
    : `author is ${JSON.stringify(entry?.author)?.slice(0, 80)}`;

export type RequestOptions = Partial<autocannon.Request> & { setupRequest?: SetupRequest };

type SetupRequest = (request: any, context: any) => any;

export interface Measured {
  name: string;
  title: string;
  requests_per_second: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  requests: number;
  errors: number;
  non_2xx: number;
  peak_rss_mb: number;
  /** Server CPU time (user + system) per request: steadier than req/s on a busy machine. */
  cpu_ms_per_request: number;
}

/** Cycles through `values`, one per request. */
function cycle<T>(values: T[]): () => T {
  let next = 0;
  return () => values[next++ % values.length] as T;
}

/** A spread of seeded handles from across the collection (not only the newest). */
function spread(handles: string[], count = 1000): string[] {
  const step = Math.max(1, Math.floor(handles.length / count));
  return handles.filter((_, index) => index % step === 0).slice(0, count);
}

const entriesPath = (seeded: Seeded) => `/v1/accounts/${seeded.accountId}/collections/post/entries`;
const auth = (seeded: Seeded) => ({ authorization: `Bearer ${seeded.token}` });

export const entryRead = (seeded: Seeded) => {
  const handle = cycle(spread(seeded.postHandles));
  return (request: any) => ({ ...request, path: `${entriesPath(seeded)}/${handle()}` });
};

/**
 * Every seeded handle once, in an order that jumps across the collection: no entry is asked for twice
 * in a run, so no answer can come from the read cache (what a first visit to each entry costs).
 */
function everyHandleOnce(handles: string[]): () => string {
  const stride = 7919; // a prime: coprime with any seeded count that is not a multiple of it
  let next = 0;
  return () => handles[(next++ * stride) % handles.length] as string;
}

/** GET requests to `pathOf(handle)`, the handle chosen per request by `handles`. */
const readEach = (
  pathOf: (handle: string) => string,
  handles: () => string,
  headers: Record<string, string>,
): RequestOptions => ({
  method: "GET",
  headers,
  setupRequest: (request: any) => ({ ...request, path: pathOf(handles()) }),
});

export const workloads: Workload[] = [
  {
    name: "rest_entry",
    title: "REST GET one entry by handle",
    request: (seeded) => ({ method: "GET", headers: auth(seeded), setupRequest: entryRead(seeded) }),
  },
  {
    name: "rest_entry_cold",
    title: "REST GET one entry, never the same twice (uncached)",
    request: (seeded) =>
      readEach(
        (handle) => `${entriesPath(seeded)}/${handle}`,
        everyHandleOnce(seeded.postHandles),
        auth(seeded),
      ),
  },
  {
    name: "rest_list_page_1",
    title: "REST list, page 1 (20 entries, entity fields expanded)",
    expect: (body) => authorExpanded(body.data?.[0]),
    request: (seeded) => ({ method: "GET", headers: auth(seeded), path: `${entriesPath(seeded)}?page=1` }),
  },
  {
    name: "rest_list_page_2000",
    title: "REST list, page 2,000",
    request: (seeded) => ({ method: "GET", headers: auth(seeded), path: `${entriesPath(seeded)}?page=2000` }),
  },
  {
    name: "graphql_list",
    title: "GraphQL list of 20, entity fields expanded",
    expect: (body) => authorExpanded(body.data?.entries?.data?.[0]?.values),
    request: (seeded) => ({
      method: "POST",
      path: "/graphql",
      headers: { ...auth(seeded), "content-type": "application/json" },
      body: JSON.stringify({
        query: `query List($account: ID!) { entries(account_id: $account, collection_id: "post", page: 1) {
          data { id handle title content_path published_at values } pagination { total } } }`,
        variables: { account: seeded.accountId },
      }),
    }),
  },
  {
    name: "site_entry",
    title: "Site entry page render",
    request: (seeded) =>
      readEach((handle) => `/blog/${handle}`, cycle(spread(seeded.postHandles)), { host: seeded.domain }),
  },
  {
    name: "site_entry_cold",
    title: "Site entry page, never the same twice (uncached)",
    request: (seeded) =>
      readEach((handle) => `/blog/${handle}`, everyHandleOnce(seeded.postHandles), { host: seeded.domain }),
  },
  {
    name: "site_index",
    title: "Site index page render",
    request: (seeded) => ({ method: "GET", headers: { host: seeded.domain }, path: "/blog" }),
  },
  {
    // Last: it adds entries.
    name: "rest_create",
    title: "REST create entry",
    writes: true,
    request: (seeded) => {
      let next = 0;
      const run = Date.now().toString(36);
      return {
        method: "POST",
        headers: { ...auth(seeded), "content-type": "application/json" },
        path: entriesPath(seeded),
        setupRequest: (request: any) => ({
          ...request,
          body: JSON.stringify({
            handle: `new-${run}-${next}`,
            title: "A new post",
            summary: "Written by the bench",
            body: "<p>Fresh <em>content</em>.</p>",
            rating: 4,
            // Each create names another author, as a site's posts do (one author would make every
            // create the same statement, values and all).
            author: seeded.authorIds[next++ % seeded.authorIds.length],
          }),
        }),
      };
    },
  },
  {
    // After the reads: it changes seeded posts (their title and summary), one after another.
    name: "rest_update",
    title: "REST update entry",
    writes: true,
    request: (seeded) => {
      const handle = cycle(spread(seeded.postHandles));
      let next = 0;
      return {
        method: "PUT",
        headers: { ...auth(seeded), "content-type": "application/json" },
        setupRequest: (request: any) => ({
          ...request,
          path: `${entriesPath(seeded)}/${handle()}`,
          body: JSON.stringify({ title: `Updated ${next}`, summary: `Revised by the bench (${next++})` }),
        }),
      };
    },
  },
];

export const settings = {
  connections: 10,
  duration: Number(process.env.BENCH_DURATION ?? 10),
  warmupRequests: Number(process.env.BENCH_WARMUP_REQUESTS ?? 2000),
  warmup: Number(process.env.BENCH_WARMUP ?? 2),
};

/**
 * For `length` seconds, or `{ amount }` requests. Several request options are sent in turn on each
 * connection (a mix); `load` overrides the connections or caps the rate over all of them (`overallRate`).
 */
export async function measure(
  url: string,
  options: RequestOptions | RequestOptions[],
  length: number | { amount: number } = settings.duration,
  load: { connections?: number; overallRate?: number } = {},
): Promise<autocannon.Result> {
  const requests = (Array.isArray(options) ? options : [options]).map(({ setupRequest, ...request }) => ({
    ...request,
    ...(setupRequest && { setupRequest }),
  }));
  return autocannon({
    url,
    connections: settings.connections,
    ...load,
    ...(typeof length === "number" ? { duration: length } : length),
    requests: requests as autocannon.Request[],
  });
}

export function workloadNamed(name: string): Workload {
  const workload = workloads.find((candidate) => candidate.name === name);
  if (!workload) throw new Error(`no workload named ${name}`);
  return workload;
}

export function summarize(
  name: string,
  title: string,
  result: autocannon.Result,
  peakRssMb: number,
  cpuMs: number,
): Measured {
  return {
    name,
    title,
    requests_per_second: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non_2xx: result.non2xx,
    peak_rss_mb: Math.round(peakRssMb),
    cpu_ms_per_request: Math.round((cpuMs / Math.max(result.requests.total, 1)) * 1000) / 1000,
  };
}
