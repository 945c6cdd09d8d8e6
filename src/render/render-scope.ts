// What one page render may reach: the account's templates and forms, the request's page number and the
// schema-backed lists of the `query` and `paginate` tags. The Liquid engine (and its parse cache) is
// shared by every account, so this per-request state travels in an AsyncLocalStorage around each render
// rather than in the engine: a cached tag can never see another request's account.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { FormState } from "./form-drop.ts";
import type { EntryList, EntryListArgs, SiteForm } from "./site-data.ts";

export interface RenderScope {
  accountId: string;
  /** Template source by handle: the only files `{% render %}` and the page itself may read. */
  templates: Map<string, string>;
  forms: Record<string, SiteForm>;
  /** A failed submission shown again: its form's `form.errors` and `form.values`. */
  formState?: FormState;
  /** The page of the request's lists (`?page=N` or `/page/N`, else 1), for `query` and `paginate`. */
  page: number;
  /** The request's path without `/page/N`, base of the page URLs of `query` and `paginate`. */
  path: string;
  /** A page of a collection's published entries, from the schema; null for an unknown collection. */
  entries(args: EntryListArgs): Promise<EntryList | null>;
  /** Set when the page's output may differ next time: it showed the current time or sampled at random. */
  varies?: boolean;
  /** performance.now() past which the page (template and layout together) stops rendering. */
  deadline?: number;
  /** Where `{% render %}`/`{% include %}` note the partials they named that the account lacks. */
  missingPartials?: Set<string>;
}

/** How long one page (its template and layout together) may take to render. */
export const RENDER_LIMIT_MS = 2_000;

const storage = new AsyncLocalStorage<RenderScope>();
let rendering = 0;

/**
 * Runs `render` with `scope` as the current render scope. On Node 20 an enabled AsyncLocalStorage puts
 * a hook on every promise the process makes, in every request (a create cost 8 % more CPU once a page had
 * been rendered), so the storage is disabled again whenever no render is in flight; `run` enables it.
 */
export async function withRenderScope<T>(scope: RenderScope, render: () => Promise<T>): Promise<T> {
  rendering += 1;
  scope.deadline ??= performance.now() + RENDER_LIMIT_MS;
  try {
    return await storage.run(scope, render);
  } finally {
    rendering -= 1;
    if (rendering === 0) storage.disable();
  }
}

export function currentScope(): RenderScope | undefined {
  return storage.getStore();
}

export function renderScope(): RenderScope {
  const scope = storage.getStore();
  if (!scope) throw new Error("no site request is being rendered");
  return scope;
}

/** The content hash of the template `handle` in this render, or undefined when the account has none. */
export function templateHash(scope: RenderScope, handle: string): string | undefined {
  const html = scope.templates.get(handle);
  return html === undefined ? undefined : contentHash(html);
}

/**
 * Hashes by template source, across requests: a kept template is the same string every time, which V8
 * finds in a map without reading it again, where SHA-1 would read all of it for every page.
 */
const hashesBySource = new LRUCache<string, string>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (_hash, source) => Math.max(1, source.length * 2),
});

function contentHash(source: string): string {
  let hash = hashesBySource.get(source);
  if (hash === undefined) {
    hash = createHash("sha1").update(source).digest("base64url");
    hashesBySource.set(source, hash);
  }
  return hash;
}
