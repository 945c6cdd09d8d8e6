// One page of an account's site rendered from its SiteData, inside a render worker (render-worker.ts): the
// page's template inside its layout, or the site's 404 page, in a render scope that reaches only this
// account's templates, forms and entry lists and stops at the render limits.
import { engine } from "./engine.ts";
import type { FormState } from "./form-drop.ts";
import { renderNotFound, renderPage } from "./page.ts";
import { type RenderScope, withRenderScope } from "./render-scope.ts";
import type { EntryList, EntryListArgs, SiteData } from "./site-data.ts";

/** What a render worker is asked: a page of a site, and how long the render may still take. */
export interface SiteRenderJob {
  site: SiteData;
  /** The request's URL. */
  url: string;
  /** Its `?page=N`, unless the schema found the page number in the path. */
  page: number;
  formState?: FormState;
  /** Milliseconds left before the page's deadline (RENDER_LIMIT_MS from when its render was asked for). */
  remainingMs: number;
}

export interface SiteRenderResult {
  /** 404 when the site has no page at the URL (the body is then its 404 page). */
  status: 200 | 404;
  body: string;
  /** The output may differ next time (it showed the current time or sampled at random). */
  varies: boolean;
  /** Partials the templates named that the account lacks (each rendered as nothing). */
  missingPartials: string[];
}

/** Renders the job's page; `entries` reads the `query` and `paginate` tags' lists. Throws what the render throws. */
export async function renderSite(
  job: SiteRenderJob,
  entries: (args: EntryListArgs) => Promise<EntryList | null>,
): Promise<SiteRenderResult> {
  const { site, page, formState } = job;
  const url = new URL(job.url);
  const lists = new Map<string, Promise<EntryList | null>>();
  const scope: RenderScope = {
    accountId: site.id,
    templates: new Map(site.templates.map((template) => [template.handle, template.html])),
    forms: site.forms,
    formState,
    page: site.page?.current_page ?? page,
    path: site.page?.base_path ?? url.pathname,
    // The same list asked for twice (a query in a loop, say) is read once per render.
    entries: (args) => {
      const key = JSON.stringify(args);
      const list = lists.get(key) ?? entries(args);
      lists.set(key, list);
      return list;
    },
    deadline: performance.now() + job.remainingMs,
    missingPartials: new Set(),
  };
  const has = (handle: string) => scope.templates.has(handle);
  const shown = site.page;
  const body = await withRenderScope(scope, () =>
    shown ? renderPage(engine, site, shown, url, has) : renderNotFound(engine, site, url, has),
  );
  return {
    status: shown ? 200 : 404,
    body,
    varies: scope.varies === true,
    missingPartials: [...(scope.missingPartials ?? [])],
  };
}
