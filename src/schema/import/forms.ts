// The `forms` section: each form held to formCreate's rules and its notification settings to
// formNotificationsUpdate's; its collection and blueprint named by handle (the blueprint one of that
// collection's, as resolveTarget requires). Created or updated by handle, left alone when as stored.
import type { Form } from "../../generated/sqlite/client.ts";
import type { FormUpdate } from "../forms/inputs.ts";
import { formColumns } from "../forms/rules.ts";
import { newId, prefixes } from "../ids.ts";
import { checkInput } from "./input-check.ts";
import { firstTime, type ImportRun, listOf, tally, type Write } from "./run.ts";

type FormInput = FormUpdate & {
  title: string;
  handle?: string | null;
  collection_handle: string;
  blueprint_handle: string;
};

interface Notifications {
  notification_enabled?: boolean | null;
  notification_emails?: string[] | null;
}

export async function planForms(run: ImportRun, section: unknown): Promise<Write> {
  const { ctx, scope, index } = run;
  const stored = new Map((await ctx.db.form.findMany({ where: scope })).map((row) => [row.handle, row]));
  const creates: Partial<Form>[] = [];
  const updates: { id: string; columns: Partial<Form> }[] = [];
  const seen = new Set<string>();
  for (const { at, record } of listOf(run, ["forms"], section)) {
    const input = checkInput<FormInput>("FormCreateInput", record, at, run.problems);
    const notifications = checkInput<Notifications>("FormNotificationsInput", record, at, run.problems);
    if (!input || !notifications) continue;
    if (!input.handle) {
      run.problems.add([...at, "handle"], "is required");
      continue;
    }
    if (!firstTime(run, seen, input.handle, at)) continue;
    const collection = index.collections.get(input.collection_handle);
    if (!collection) {
      run.problems.add(
        [...at, "collection_handle"],
        `no collection '${input.collection_handle}' in this account`,
      );
      continue;
    }
    const blueprint = collection.blueprints.find((b) => b.handle === input.blueprint_handle);
    if (!blueprint) {
      run.problems.add(
        [...at, "blueprint_handle"],
        `'${input.blueprint_handle}' is not a blueprint of collection '${collection.handle}'`,
      );
      continue;
    }
    const addresses = notifications.notification_emails?.length
      ? notifications.notification_emails.join(", ")
      : null;
    const enabled = notifications.notification_enabled ?? false;
    if (enabled && !addresses) {
      run.problems.add(
        [...at, "notification_emails"],
        "must list an address when notification_enabled is true",
      );
      continue;
    }
    // The file is the form's whole state: settings it leaves out take their defaults.
    const columns: Partial<Form> = {
      redirectUrl: null,
      successMessage: null,
      honeypotEnabled: false,
      spamCheckEnabled: false,
      ...formColumns(input),
      collectionId: collection.id,
      blueprintId: blueprint.id,
      notificationEnabled: enabled,
      notificationEmails: addresses,
    };
    const existing = stored.get(input.handle);
    if (!existing) {
      creates.push({ ...columns, id: newId(prefixes.form), handle: input.handle, title: input.title });
      tally(run, "forms", "created");
      continue;
    }
    const changed = Object.entries(columns).filter(([key, value]) => existing[key as keyof Form] !== value);
    if (changed.length === 0) tally(run, "forms", "unchanged");
    else {
      updates.push({ id: existing.id, columns: Object.fromEntries(changed) });
      tally(run, "forms", "updated");
    }
  }
  return async (tx) => {
    const { now } = run;
    for (const row of creates)
      await tx.form.create({ data: { ...(row as Form), ...scope, createdAt: now, updatedAt: now } });
    for (const { id, columns } of updates)
      await tx.form.update({ where: { id }, data: { ...columns, updatedAt: now } });
  };
}
