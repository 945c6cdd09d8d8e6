// The Template as the API returns it.
import { builder } from "../builder.ts";

export const TemplateKindEnum = builder.enumType("TemplateKind", {
  description: "layout: page structure; template: content-specific rendering; partial: reusable component.",
  values: ["layout", "template", "partial"] as const,
});

export const TemplateRef = builder.prismaObject("Template", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    kind: t.field({ type: TemplateKindEnum, resolve: (template) => template.kind as "template" }),
    html: t.exposeString("html"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
