// `preview_render_path`: the hosted service's name for rendering a page of the site by path. It renders
// as `site_preview` with a `path` does (render/preview.ts) and answers, as the service does, `status`
// "ok" for a page the site shows ("not_found" where it shows its 404 page), with the HTTP status and
// the HTML.
import type { GraphQLSchema } from "graphql";
import { isObjectType } from "graphql";
import { renderPreview } from "../render/preview.ts";
import { describe, objectSchema } from "./json-schema.ts";
import { readOnly, type Tool } from "./tool.ts";

export function previewRenderPathTool(schema: GraphQLSchema): Tool {
  const site = schema.getType("Site");
  if (!isObjectType(site)) throw new Error("the schema has no Site type");
  const args = (site.getFields().page?.args ?? []).filter((arg) => arg.name === "path");
  const { properties, required } = objectSchema(args);
  properties.path = describe(properties.path ?? {}, "The path on the site, with `?page=N` for a later page.");
  return {
    name: "preview_render_path",
    description:
      "Render the page at a site path (`/`, `/blog`, `/blog/hello`) as the site would, and return its HTML with `status` ok or not_found.",
    access: "read",
    annotations: readOnly,
    inputSchema: { type: "object", properties, required, additionalProperties: false },
    async call(given, { ctx, accountId }) {
      const path = String(given.path);
      const rendered = await renderPreview(schema, ctx, accountId, { path });
      const status = rendered.status === 200 ? "ok" : rendered.status === 404 ? "not_found" : "error";
      return {
        structured: { path, status, http_status: rendered.status, html: rendered.html },
        text: rendered.html,
      };
    },
  };
}
