// The `form` object inside `{% form_for %}`, shaped as the hosted service's form drop: `form.id`,
// `form.collection` and `form.blueprint` (handles), `form.fields`, `form.field.<handle>`, `form.errors`
// (`any`, `all`, `full_messages`, and the messages of each field by handle), `form.has_errors` and
// `form.values` (what the visitor sent, after a failed submission without JavaScript).
import type { SiteForm } from "./site-data.ts";

/** A failed submission of one form, shown again on the page it was posted from. */
export interface FormState {
  handle: string;
  /** Messages by field handle. */
  errors: Record<string, string[]>;
  /** The posted values by field handle. */
  values: Record<string, string>;
}

export interface FieldDrop extends Record<string, unknown> {
  id: string;
  handle: string;
}

/**
 * A field as the service shows it. Where it has no placeholder or help text the value stays nil (the
 * service gives ""): both print nothing, and `{% if field.help_text %}` stays false as themes made for
 * this CMS expect.
 */
function fieldDrop(formId: string, field: Record<string, unknown>): FieldDrop {
  const handle = String(field.handle);
  const drop: FieldDrop = {
    ...field,
    handle,
    id: `${formId}_${handle}`,
    label: field.label || handle.replace(/_/g, " ").replace(/^./, (first) => first.toUpperCase()),
    type: field.type ?? "text",
    required: field.required === true,
    placeholder: field.placeholder ?? null,
    help_text: field.help_text ?? null,
    input_type: field.input_type ?? "text",
    options: field.options ?? [],
    display_as: field.display_as ?? "select",
    max_items: field.max_items ?? 10,
    name: `fields[${handle}]`,
  };
  // `{{ field }}` prints its handle, as the service's field drop does; not a key of its own (`json`).
  Object.defineProperty(drop, "toString", { value: () => handle, enumerable: false });
  return drop;
}

export function formDrop(formId: string, form: SiteForm, state?: FormState): Record<string, unknown> {
  const fields = form.fields.map((field) => fieldDrop(formId, field));
  // Each message starts with its field's label ("Email is required"), read alone or in a list.
  const labels = new Map(fields.map((field) => [field.handle, String(field.label)]));
  const errors = Object.fromEntries(
    Object.entries(state?.errors ?? {}).map(([handle, list]) => [
      handle,
      list.map((message) => `${labels.get(handle) ?? handle} ${message}`),
    ]),
  );
  const messages = Object.values(errors).flat();
  return {
    ...form,
    id: formId,
    fields,
    field: Object.fromEntries(fields.map((field) => [field.handle, field])),
    // The handles first: a field named `any` or `all` must not hide the summary.
    errors: { ...errors, any: messages.length > 0, all: messages, full_messages: messages },
    has_errors: messages.length > 0,
    values: { ...state?.values },
  };
}
