// The Form as the API returns it (content-api.md, "Form": response fields). `fields` come from the
// blueprint, without the internal spam-status field; `template_usage` is generated from them.
import { readFields } from "../blueprints/fields.ts";
import { BlueprintFieldRef } from "../blueprints/type.ts";
import { builder } from "../builder.ts";
import { visibleFields } from "./form-fields.ts";
import { type TemplateUsage, templateUsage } from "./usage.ts";

export const TemplateUsageRef = builder.objectRef<TemplateUsage>("FormTemplateUsage").implement({
  description: "How to render the form in a Liquid template with the form_for tag.",
  fields: (t) => ({
    description: t.exposeString("description"),
    important: t.exposeString("important"),
    example: t.exposeString("example"),
    manual_field_example: t.exposeString("manual_field_example"),
    available_field_properties: t.exposeStringList("available_field_properties"),
  }),
});

export const FormRef = builder.prismaObject("Form", {
  fields: (t) => ({
    id: t.exposeID("id"),
    handle: t.exposeString("handle"),
    title: t.exposeString("title"),
    collection_handle: t.string({
      select: { collection: { select: { handle: true } } },
      resolve: (form) => form.collection.handle,
    }),
    blueprint_handle: t.string({
      select: { blueprint: { select: { handle: true } } },
      resolve: (form) => form.blueprint.handle,
    }),
    collection_id: t.exposeID("collectionId"),
    blueprint_id: t.exposeID("blueprintId"),
    redirect_url: t.exposeString("redirectUrl", { nullable: true }),
    success_message: t.exposeString("successMessage", { nullable: true }),
    honeypot_enabled: t.exposeBoolean("honeypotEnabled"),
    notification_enabled: t.exposeBoolean("notificationEnabled"),
    notification_emails: t.exposeString("notificationEmails", { nullable: true }),
    spam_check_enabled: t.exposeBoolean("spamCheckEnabled"),
    fields: t.field({
      type: [BlueprintFieldRef],
      select: { blueprint: { select: { fields: true } } },
      resolve: (form) => visibleFields(readFields(form.blueprint.fields)),
    }),
    template_usage: t.field({
      type: TemplateUsageRef,
      select: {
        collection: { select: { handle: true } },
        blueprint: { select: { fields: true } },
      },
      resolve: (form) =>
        templateUsage({
          handle: form.handle,
          title: form.title,
          honeypotEnabled: form.honeypotEnabled,
          collectionHandle: form.collection.handle,
          fields: readFields(form.blueprint.fields),
        }),
    }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
  }),
});
