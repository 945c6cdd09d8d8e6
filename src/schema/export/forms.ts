// The `forms` section: each form's settings, the collection and blueprint its submissions use (by
// handle), and its notification settings, the addresses as a list (as the API takes them).
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import { creationOrder } from "./keyset.ts";
import { yamlEntry } from "./yaml-text.ts";

export async function formsSection(ctx: Context, scope: AccountScope): Promise<string> {
  const forms = await ctx.db.form.findMany({
    where: scope,
    orderBy: creationOrder(),
    include: { collection: { select: { handle: true } }, blueprint: { select: { handle: true } } },
  });
  return yamlEntry(
    "forms",
    forms.map((form) => ({
      handle: form.handle,
      title: form.title,
      collection_handle: form.collection.handle,
      blueprint_handle: form.blueprint.handle,
      redirect_url: form.redirectUrl,
      success_message: form.successMessage,
      honeypot_enabled: form.honeypotEnabled,
      spam_check_enabled: form.spamCheckEnabled,
      notification_enabled: form.notificationEnabled,
      notification_emails: addresses(form.notificationEmails),
    })),
  );
}

/** Stored as one comma-separated string. */
function addresses(stored: string | null): string[] {
  return (stored ?? "")
    .split(",")
    .map((address) => address.trim())
    .filter(Boolean);
}
