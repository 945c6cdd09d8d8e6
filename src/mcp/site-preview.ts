// `site_preview`: the HTML of a page of the account's site, or of one entry as its page would show it
// even while unpublished, so an assistant can check its work before (or without) publishing it.
import type { GraphQLSchema } from "graphql";
import { isObjectType } from "graphql";
import { renderPreview } from "../render/preview.ts";
import { ApiError } from "../schema/errors.ts";
import { objectSchema } from "./json-schema.ts";
import { readOnly, type Tool } from "./tool.ts";

export function sitePreviewTool(schema: GraphQLSchema): Tool {
  const site = schema.getType("Site");
  if (!isObjectType(site)) throw new Error("the schema has no Site type");
  const { page, entryPage } = site.getFields();
  const args = [...(page?.args ?? []), ...(entryPage?.args ?? [])].filter((arg) => arg.name !== "page");
  const { properties } = objectSchema(args);
  return {
    name: "site_preview",
    description:
      "Render a page of the site (`path`) or one entry, even unpublished (`collection` + `handle`), and return its HTML.",
    access: "read",
    annotations: readOnly,
    inputSchema: { type: "object", properties, additionalProperties: false },
    async call(given, { ctx, accountId }) {
      const { path, collection, handle } = given as Record<string, string | undefined>;
      const byEntry = collection !== undefined || handle !== undefined;
      if (byEntry === (path !== undefined))
        throw ApiError.invalid("path", "give either path, or collection and handle");
      if (byEntry && (collection === undefined || handle === undefined))
        throw ApiError.invalid(
          collection === undefined ? "collection" : "handle",
          "is required with the other",
        );
      const target = byEntry
        ? { collection: String(collection), handle: String(handle) }
        : { path: String(path) };
      const { status, html } = await renderPreview(schema, ctx, accountId, target);
      return { structured: { ...target, status, html }, text: html };
    },
  };
}
