// A Liquid engine over one account's templates: `{% render %}`/`{% include %}` read only those templates
// (never the server's files, never another account's), and parse, render-time and memory limits stop a
// runaway template.
import { Liquid } from "liquidjs";
import type { SiteForm, TemplateSource } from "./site-data.ts";
import { registerCmsTags } from "./tags.ts";

export const RENDER_LIMIT_MS = 2_000;

export function createEngine(templates: TemplateSource[], forms: Record<string, SiteForm>): Liquid {
  const byHandle = new Map(templates.map((template) => [template.handle, template.html]));
  const read = (handle: string) => {
    const html = byHandle.get(handle);
    if (html === undefined) throw new Error(`template '${handle}' not found`);
    return html;
  };
  const engine = new Liquid({
    root: [""],
    extname: "",
    relativeReference: false,
    dynamicPartials: true,
    ownPropertyOnly: true,
    strictFilters: false,
    cache: false,
    parseLimit: 2_000_000,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: 64 * 1024 * 1024,
    fs: {
      exists: async (handle) => byHandle.has(handle),
      existsSync: (handle) => byHandle.has(handle),
      readFile: async (handle) => read(handle),
      readFileSync: read,
      resolve: (_root, file) => file.replace(/^\/+/, ""),
      contains: async () => true,
    },
  });
  registerCmsTags(engine, forms);
  return engine;
}
