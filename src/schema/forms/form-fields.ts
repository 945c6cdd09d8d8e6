// A form's fields as the site sees them: the blueprint's fields minus the internal spam-status field,
// each with the properties `form.fields` offers inside `{% form_for %}` (decisions.md, "Site rendering").
// Inputs are named `fields[<handle>]`.
import type { FieldDefinition, FieldType } from "../blueprints/fields.ts";

/** The blueprint field where spam checking records its verdict; never shown as a form field. */
export const SPAM_STATUS_FIELD = "spam_status";

/** The visually hidden input the form_for tag adds when the honeypot is enabled. */
export const HONEYPOT_INPUT = "website";

export const formFieldProperties = [
  "handle",
  "label",
  "type",
  "required",
  "placeholder",
  "help_text",
  "input_type",
  "options",
  "name",
] as const;

export interface FormField {
  handle: string;
  label: string;
  type: FieldType;
  required: boolean;
  placeholder: string | null;
  help_text: string | null;
  /** The HTML control: an <input> type, or `textarea` / `select`. */
  input_type: string;
  /** The choices of a select (an enumerate field's enumerations); empty otherwise. */
  options: string[];
  /** The input name: fields[<handle>]. */
  name: string;
}

const inputTypes: Partial<Record<FieldType, string>> = {
  rich_text: "textarea",
  raw_html: "textarea",
  list: "textarea",
  dictionary: "textarea",
  number: "number",
  toggle: "checkbox",
  enumerate: "select",
  image: "file",
  gallery: "file",
  video: "url",
};

export function visibleFields(fields: readonly FieldDefinition[]): readonly FieldDefinition[] {
  return fields.filter((field) => field.handle !== SPAM_STATUS_FIELD);
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

export function formFieldsOf(fields: readonly FieldDefinition[]): FormField[] {
  return visibleFields(fields).map((field) => {
    const { options } = field;
    const enumerations = Array.isArray(options.enumerations) ? options.enumerations : [];
    return {
      handle: field.handle,
      label: field.display,
      type: field.type,
      required: options.required === true,
      placeholder: text(options.placeholder),
      help_text: text(options.help_text),
      input_type: text(options.input_type) ?? inputTypes[field.type] ?? "text",
      options: field.type === "enumerate" ? enumerations.filter((e) => typeof e === "string") : [],
      name: `fields[${field.handle}]`,
    };
  });
}
