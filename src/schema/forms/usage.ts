// template_usage: how to put this form on a page with the form_for tag, written from the form's own
// fields, so that the example can be pasted into a template as is.
import type { FieldDefinition } from "../blueprints/fields.ts";
import { type FormField, formFieldProperties, formFieldsOf, HONEYPOT_INPUT } from "./form-fields.ts";

export interface TemplateUsage {
  description: string;
  important: string;
  example: string;
  manual_field_example: string;
  available_field_properties: string[];
}

export interface UsageSource {
  handle: string;
  title: string;
  honeypotEnabled: boolean;
  collectionHandle: string;
  fields: readonly FieldDefinition[];
}

/** Escapes text for HTML, and braces so that Liquid leaves it alone. */
function escapeHtml(value: string): string {
  const entities: Record<string, string> = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
    "{": "&#123;",
    "}": "&#125;",
  };
  return value.replace(/[&<>"'{}]/g, (char) => entities[char] ?? char);
}

function control(formHandle: string, field: FormField): string[] {
  const id = `${formHandle}-${field.handle}`;
  const required = field.required ? " required" : "";
  const placeholder = field.placeholder ? ` placeholder="${escapeHtml(field.placeholder)}"` : "";
  const attributes = `id="${id}" name="${field.name}"`;
  const label = `<label for="${id}">${escapeHtml(field.label)}</label>`;
  switch (field.input_type) {
    case "textarea":
      return [label, `<textarea ${attributes}${placeholder}${required}></textarea>`];
    case "select":
      return [
        label,
        `<select ${attributes}${required}>`,
        `  <option value="">${escapeHtml(field.placeholder ?? "")}</option>`,
        ...field.options.map(
          (option) => `  <option value="${escapeHtml(option)}">${escapeHtml(option)}</option>`,
        ),
        "</select>",
      ];
    case "checkbox":
      return [
        `<label><input type="checkbox" ${attributes} value="true"${required}> ${escapeHtml(field.label)}</label>`,
      ];
    case "file":
      return [
        label,
        `<input type="file" ${attributes}${field.type === "gallery" ? " multiple" : ""}${required}>`,
      ];
    default:
      return [label, `<input type="${escapeHtml(field.input_type)}" ${attributes}${placeholder}${required}>`];
  }
}

function example(handle: string, fields: FormField[]): string {
  const lines = [`{% form_for '${handle}' %}`];
  if (fields.length === 0) lines.push("  <!-- The form's blueprint has no fields yet. -->");
  for (const field of fields) {
    lines.push("  <div>");
    for (const line of control(handle, field)) lines.push(`    ${line}`);
    if (field.help_text) lines.push(`    <small>${escapeHtml(field.help_text)}</small>`);
    lines.push("  </div>");
  }
  lines.push('  <button type="submit">Send</button>', "{% endform_for %}");
  return lines.join("\n");
}

function loopExample(handle: string): string {
  const id = 'id="field-{{ field.handle }}" name="{{ field.name }}"';
  const required = "{% if field.required %} required{% endif %}";
  const placeholder = 'placeholder="{{ field.placeholder }}"';
  return [
    `{% form_for '${handle}' %}`,
    "  {% for field in form.fields %}",
    "    <div>",
    "      {% if field.input_type == 'checkbox' %}",
    `        <label><input type="checkbox" ${id} value="true"${required}> {{ field.label }}</label>`,
    "      {% else %}",
    '        <label for="field-{{ field.handle }}">{{ field.label }}</label>',
    "        {% if field.input_type == 'textarea' %}",
    `        <textarea ${id} ${placeholder}${required}></textarea>`,
    "        {% elsif field.input_type == 'select' %}",
    `        <select ${id}${required}>`,
    '          <option value="">{{ field.placeholder }}</option>',
    '          {% for option in field.options %}<option value="{{ option }}">{{ option }}</option>{% endfor %}',
    "        </select>",
    "        {% else %}",
    `        <input type="{{ field.input_type }}" ${id} ${placeholder}${required}>`,
    "        {% endif %}",
    "      {% endif %}",
    "      {% if field.help_text %}<small>{{ field.help_text }}</small>{% endif %}",
    "    </div>",
    "  {% endfor %}",
    '  <button type="submit">Send</button>',
    "{% endform_for %}",
  ].join("\n");
}

export function templateUsage(form: UsageSource): TemplateUsage {
  const fields = formFieldsOf(form.fields);
  const required = fields.filter((field) => field.required).map((field) => field.handle);
  const important = [
    "Keep the inputs inside {% form_for %} … {% endform_for %} and name each one fields[<field handle>]" +
      (fields[0] ? ` (for example ${fields[0].name})` : "") +
      "; inputs with other names are not saved.",
    required.length > 0
      ? `Required fields: ${required.join(", ")}; a submission without them is refused with 422.`
      : "No field is required.",
    form.honeypotEnabled
      ? `The honeypot is enabled: the tag adds a hidden input named '${HONEYPOT_INPUT}' itself; do not add one.`
      : "The honeypot is disabled.",
    "Add {% cms_scripts %} (or {{ content_for_header }}) to the layout to submit without a page reload.",
  ].join(" ");
  return {
    description:
      `Renders the form '${form.title}' with the form_for tag: <form method="post" ` +
      `action="/cms/${form.handle}/submit" enctype="multipart/form-data"> with hidden redirect_url and ` +
      `success_message inputs. Each submission becomes an unpublished entry of collection ` +
      `'${form.collectionHandle}'. The example writes out this form's fields; manual_field_example renders ` +
      "whatever fields the form has by looping over form.fields.",
    important,
    example: example(form.handle, fields),
    manual_field_example: loopExample(form.handle),
    available_field_properties: [...formFieldProperties],
  };
}
