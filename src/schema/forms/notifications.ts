// The form's notification settings (content-api.md: "set in the dashboard or through a separate tool
// interface, not REST"): a GraphQL-only mutation. The addresses are stored, and returned in
// `notification_emails`, as one comma-separated string ("a@example.com, b@example.com").
import { z } from "zod";
import { accountScope } from "../access.ts";
import { accountArg, idArg } from "../args.ts";
import { builder } from "../builder.ts";
import { ApiError } from "../errors.ts";
import { findForm } from "./find.ts";
import { FormRef } from "./type.ts";

export const MAX_NOTIFICATION_EMAILS = 20;

const emails = z
  .array(
    z.string().trim().max(254, "must be at most 254 characters").pipe(z.email("must be an email address")),
  )
  .max(MAX_NOTIFICATION_EMAILS, `must list at most ${MAX_NOTIFICATION_EMAILS} addresses`)
  .transform((list) => {
    const seen = new Set<string>();
    return list.filter((email) => !seen.has(email.toLowerCase()) && seen.add(email.toLowerCase()));
  })
  .nullish();

export const FormNotificationsInput = builder.inputType("FormNotificationsInput", {
  fields: (t) => ({
    notification_enabled: t.boolean({ description: "Send notifications of submissions; needs addresses." }),
    notification_emails: t.stringList({
      validate: emails,
      description: `Up to ${MAX_NOTIFICATION_EMAILS} addresses (duplicates dropped); null or [] clears them.`,
    }),
  }),
});

builder.mutationField("formNotificationsUpdate", (t) =>
  t.prismaField({
    type: FormRef,
    description:
      "Changes a form's notification settings (not available over REST, where they are read-only).",
    args: {
      account_id: accountArg(t.arg),
      id: idArg(t.arg, "form"),
      input: t.arg({ type: FormNotificationsInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const scope = await accountScope(ctx, args.account_id, "write");
      const stored = await findForm(ctx, scope, args.id);
      const { input } = args;
      const list = input.notification_emails;
      const addresses =
        list === undefined ? stored.notificationEmails : list?.length ? list.join(", ") : null;
      const enabled = input.notification_enabled ?? stored.notificationEnabled;
      if (enabled && !addresses)
        throw ApiError.invalid(
          "notification_emails",
          "must list an address when notification_enabled is true",
        );
      return ctx.db.form.update({
        ...query,
        where: { id: stored.id },
        data: {
          ...(input.notification_enabled != null && { notificationEnabled: input.notification_enabled }),
          ...(list !== undefined && { notificationEmails: addresses }),
        },
      });
    },
  }),
);
