// The one Liquid engine of every site. `{% render %}`/`{% include %}` read only the templates of the
// account being rendered (from the render scope: never the server's files, never another account's),
// parse results are cached across requests (template-cache.ts), and parse, render-time and memory
// limits stop a runaway template; filters, tags, operators and outputs run paced (render-guard.ts), so
// the time limit holds however the time is spent and the other pages of the render worker it runs in
// (render-worker.ts) render meanwhile.
import { type Context, defaultOperators, type FilterImplOptions, Liquid, type Operators } from "liquidjs";
import { registerCmsFilters } from "./filters.ts";
import { COMPARED_ITEMS, checkSize, pace } from "./render-guard.ts";
import { RENDER_LIMIT_MS, renderScope } from "./render-scope.ts";
import { pacer, registerCmsTags } from "./tags.ts";
import { ParsedTemplateCache, templateHandle } from "./template-cache.ts";

export { RENDER_LIMIT_MS };

// Every parsed template, layout and partial ends in a pacer: `{% render 'plain' for huge_list %}` renders
// a partial of plain text, which has no tag, filter or output of its own to give other requests a turn.
const parsedTemplates = new ParsedTemplateCache(undefined, undefined, (templates) => {
  const last = templates.at(-1);
  if (last) templates.push(pacer(last.token));
});

/**
 * Where `{% render %}` and `{% include %}` look (liquidjs's `partials` root; not a handle: handles have no
 * `:`). A partial the account lacks renders as an HTML comment saying so, as a missing form does, and is
 * noted in the render scope (the page's render logs it), so that one missing partial neither takes the
 * whole page down nor shows on it; a missing page template or layout is still an error.
 */
const PARTIALS = "partial:";

const exists = (file: string) =>
  file.startsWith(PARTIALS) || renderScope().templates.has(templateHandle(file));
const read = (file: string) => {
  const handle = templateHandle(file.startsWith(PARTIALS) ? file.slice(PARTIALS.length) : file);
  const scope = renderScope();
  const html = scope.templates.get(handle);
  if (html !== undefined) return html;
  if (!file.startsWith(PARTIALS)) throw new Error(`template '${handle}' not found`);
  // A few names say what is wrong; a name from data in a loop could make thousands.
  if (scope.missingPartials && scope.missingPartials.size < 20) scope.missingPartials.add(handle);
  // Parsed as Liquid like any source: a name from data (`{% render entry.kind %}`) must not bring tags.
  return /^[\w./-]*$/.test(handle) ? `<!-- partial '${handle}' not found -->` : "<!-- partial not found -->";
};

export const engine = new Liquid({
  root: [""],
  partials: [PARTIALS],
  layouts: [""],
  extname: "",
  relativeReference: false,
  dynamicPartials: true,
  ownPropertyOnly: true,
  strictFilters: false,
  // A date with an offset (`2024-06-03T01:30:00+02:00`) is shown in it, as Ruby's Time.parse keeps it.
  preserveTimezones: true,
  cache: parsedTemplates,
  parseLimit: 2_000_000,
  renderLimit: RENDER_LIMIT_MS,
  // Counted by Liquid per render of a template or layout: characters its string filters take, elements
  // of ranges and lists. A range literal is the one large value made without a (paced) filter.
  memoryLimit: 3_000_000,
  operators: pacedOperators(),
  // Not an escape: every `{{ }}` and `echo` passes its value here, where a huge one is refused before
  // it is turned into text.
  outputEscape: sizedOutput as FilterImplOptions as (value: unknown) => string,
  fs: {
    exists: async (file) => exists(file),
    existsSync: exists,
    readFile: async (file) => read(file),
    readFileSync: read,
    resolve: (root, file) => (root === PARTIALS ? PARTIALS : "") + templateHandle(file),
    contains: async () => true,
    containsSync: () => true,
  },
});
registerCmsTags(engine);
registerCmsFilters(engine);

/** Liquid's operators, paced and refusing operands too large to compare (`a == b` walks both lists). */
function pacedOperators(): Operators {
  const operators: Operators = {};
  for (const [name, operator] of Object.entries(defaultOperators)) {
    operators[name] = function* (...args: unknown[]): Generator<unknown, unknown, unknown> {
      const ctx = args[args.length - 1] as Context;
      yield pace(ctx);
      checkSize(args.slice(0, -1), `operator ${name}`, COMPARED_ITEMS);
      return yield (operator as (...a: unknown[]) => unknown)(...args);
    } as never;
  }
  return operators;
}

function* sizedOutput(this: { context: Context }, value: unknown): Generator<unknown, unknown, unknown> {
  yield pace(this.context);
  checkSize([value], "output");
  return value;
}
