// The one Liquid engine of every site. `{% render %}`/`{% include %}` read only the templates of the
// account being rendered (from the render scope: never the server's files, never another account's),
// parse results are cached across requests (template-cache.ts), and parse, render-time and memory
// limits stop a runaway template.
import { Liquid } from "liquidjs";
import { registerCmsFilters } from "./filters.ts";
import { renderScope } from "./render-scope.ts";
import { registerCmsTags } from "./tags.ts";
import { ParsedTemplateCache, templateHandle } from "./template-cache.ts";

export const RENDER_LIMIT_MS = 2_000;

const parsedTemplates = new ParsedTemplateCache();

const exists = (file: string) => renderScope().templates.has(templateHandle(file));
const read = (file: string) => {
  const html = renderScope().templates.get(templateHandle(file));
  if (html === undefined) throw new Error(`template '${templateHandle(file)}' not found`);
  return html;
};

export const engine = new Liquid({
  root: [""],
  partials: [""],
  layouts: [""],
  extname: "",
  relativeReference: false,
  dynamicPartials: true,
  ownPropertyOnly: true,
  strictFilters: false,
  cache: parsedTemplates,
  parseLimit: 2_000_000,
  renderLimit: RENDER_LIMIT_MS,
  memoryLimit: 64 * 1024 * 1024,
  fs: {
    exists: async (file) => exists(file),
    existsSync: exists,
    readFile: async (file) => read(file),
    readFileSync: read,
    resolve: (_root, file) => templateHandle(file),
    contains: async () => true,
    containsSync: () => true,
  },
});
registerCmsTags(engine);
registerCmsFilters(engine);
