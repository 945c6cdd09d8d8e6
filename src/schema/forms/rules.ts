// Rules shared by form create and update: the collection and blueprint a form points at (the blueprint
// must be one of that collection's), a unique handle, and input -> columns.
import type { Form } from "../../generated/sqlite/client.ts";
import type { AccountScope } from "../access.ts";
import type { Context } from "../context.ts";
import type { Problems } from "../errors.ts";
import { idOrHandle } from "../handles.ts";
import { prefixes } from "../ids.ts";
import type { FormUpdate } from "./inputs.ts";

export interface FormTarget {
  collectionId: string;
  blueprintId: string;
}

/**
 * The collection and blueprint the form will point at. Each is the sent reference (handle or prefix ID)
 * or, on update when not sent, the stored one; the blueprint must belong to the collection.
 */
export async function resolveTarget(
  ctx: Context,
  scope: AccountScope,
  sent: { collection_handle?: string | null; blueprint_handle?: string | null },
  stored: FormTarget | undefined,
  problems: Problems,
): Promise<FormTarget | undefined> {
  let collection: { id: string; handle: string } | null = null;
  if (sent.collection_handle != null) {
    collection = await ctx.db.collection.findFirst({
      where: { ...scope, ...idOrHandle(sent.collection_handle, prefixes.collection) },
      select: { id: true, handle: true },
    });
    if (!collection) {
      problems.add("collection_handle", `no collection '${sent.collection_handle}' in this account`);
      return undefined;
    }
  } else if (stored) {
    collection = await ctx.db.collection.findUniqueOrThrow({
      where: { id: stored.collectionId },
      select: { id: true, handle: true },
    });
  }
  if (!collection) return undefined;
  const blueprint = await ctx.db.blueprint.findFirst({
    where: {
      ...scope,
      collectionId: collection.id,
      ...(sent.blueprint_handle != null
        ? idOrHandle(sent.blueprint_handle, prefixes.blueprint)
        : { id: stored?.blueprintId ?? "" }),
    },
    select: { id: true },
  });
  if (!blueprint) {
    problems.add(
      "blueprint_handle",
      sent.blueprint_handle != null
        ? `'${sent.blueprint_handle}' is not a blueprint of collection '${collection.handle}'`
        : `the form's blueprint is not a blueprint of collection '${collection.handle}'; send blueprint_handle`,
    );
    return undefined;
  }
  return { collectionId: collection.id, blueprintId: blueprint.id };
}

/** Adds a problem when another form of the account has the handle. */
export async function checkHandle(
  ctx: Context,
  scope: AccountScope,
  handle: string,
  ownId: string | undefined,
  problems: Problems,
): Promise<void> {
  const other = await ctx.db.form.findFirst({
    where: { ...scope, handle, ...(ownId && { id: { not: ownId } }) },
    select: { id: true },
  });
  if (other) problems.add("handle", "is already used by another form");
}

type Columns = Partial<
  Pick<Form, "title" | "handle" | "redirectUrl" | "successMessage" | "honeypotEnabled" | "spamCheckEnabled">
>;

/** Only the fields that were sent; null clears an optional setting. */
export function formColumns(input: FormUpdate): Columns {
  const columns: Columns = {};
  if (input.title != null) columns.title = input.title;
  if (input.handle != null) columns.handle = input.handle;
  if (input.redirect_url !== undefined) columns.redirectUrl = input.redirect_url;
  if (input.success_message !== undefined) columns.successMessage = input.success_message;
  if (input.honeypot_enabled != null) columns.honeypotEnabled = input.honeypot_enabled;
  if (input.spam_check_enabled != null) columns.spamCheckEnabled = input.spam_check_enabled;
  return columns;
}
