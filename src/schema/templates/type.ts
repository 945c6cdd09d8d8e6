// The Template as the API returns it.
import { builder } from "../builder.ts";
import { templateWarnings } from "./warnings.ts";

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
    warnings: t.stringList({
      description:
        "What the site will not show as written, though the source saves: each partial it renders or includes by name that the account has no template for.",
      select: { accountId: true, html: true },
      resolve: (template, _args, ctx) => templateWarnings(ctx, template.accountId, template.html),
    }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
