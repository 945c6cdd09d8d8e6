// The site's forms as `{% form_for %}` needs them: fields with their input properties, honeypot, answers.
import type { AccountScope } from "../access.ts";
import { readFields } from "../blueprints/fields.ts";
import type { Context } from "../context.ts";
import { type FormField, formFieldsOf } from "../forms/form-fields.ts";

export interface SiteForm {
  handle: string;
  title: string;
  /** The handles of the collection its submissions go to and of its blueprint, as the service gives them. */
  collection: string;
  blueprint: string;
  fields: FormField[];
  honeypot_enabled: boolean;
  redirect_url: string | null;
  success_message: string | null;
}

export async function siteForms(ctx: Context, scope: AccountScope): Promise<Record<string, SiteForm>> {
  const forms = await ctx.db.form.findMany({
    where: scope,
    select: {
      handle: true,
      title: true,
      honeypotEnabled: true,
      redirectUrl: true,
      successMessage: true,
      collection: { select: { handle: true } },
      blueprint: { select: { handle: true, fields: true } },
    },
  });
  return Object.fromEntries(
    forms
      // Read in several statements: a form deleted with its collection between them comes without it.
      .filter((form) => form.collection && form.blueprint)
      .map((form) => [
        form.handle,
        {
          handle: form.handle,
          title: form.title,
          collection: form.collection.handle,
          blueprint: form.blueprint.handle,
          fields: formFieldsOf(readFields(form.blueprint.fields)),
          honeypot_enabled: form.honeypotEnabled,
          redirect_url: form.redirectUrl,
          success_message: form.successMessage,
        },
      ]),
  );
}
