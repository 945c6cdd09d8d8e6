// Blueprint values: each sent key that names a field of the entry's blueprint is checked and brought to
// the format the API returns (content-api.md, "Field value formats"); other keys are dropped. Entity
// values are stored as entry IDs and images sent as asset IDs as those IDs; the rest are stored exactly
// as they will be returned.
import type { FieldDefinition } from "../blueprints/fields.ts";
import type { Problems } from "../errors.ts";
import { NON_FINITE_MESSAGE, nonFiniteNumberAt } from "../json-numbers.ts";
import { issuePath } from "../validation.ts";
import { type EntityLookup, resolveEntity } from "./entity.ts";
import { imageValue, videoValue } from "./media.ts";

export interface NormalizedValues {
  /** Values to store; null means "remove this value". */
  values: Record<string, unknown>;
  /** Entity fields as sent: field handle -> referenced entry IDs (empty when cleared). */
  references: Map<string, string[]>;
}

const galleryKeys = ["type", "url", "id", "thumbnail", "filename", "width", "height"];

export async function normalizeValues(
  fields: readonly FieldDefinition[],
  sent: Record<string, unknown>,
  lookup: EntityLookup,
  problems: Problems,
): Promise<NormalizedValues> {
  const values: Record<string, unknown> = {};
  const references = new Map<string, string[]>();
  for (const field of fields) {
    if (!Object.hasOwn(sent, field.handle)) continue;
    const raw = sent[field.handle];
    const fail = (message: string) => problems.add(field.handle, message);
    if (raw === null) {
      values[field.handle] = null;
      if (field.type === "entity") references.set(field.handle, []);
      continue;
    }
    const nonFinite = nonFiniteNumberAt(raw);
    if (nonFinite) {
      problems.add(issuePath([field.handle, ...nonFinite]), NON_FINITE_MESSAGE);
      continue;
    }
    if (field.type === "entity") {
      const multiple = field.options.multiple === true;
      const refs = multiple ? (Array.isArray(raw) ? raw : [raw]) : [raw];
      if (!multiple && Array.isArray(raw)) {
        fail("takes one entry reference; this field is not `multiple`");
        continue;
      }
      const ids: string[] = [];
      for (const ref of refs) {
        const id = typeof ref === "string" ? await resolveEntity(lookup, field, ref) : undefined;
        if (id) ids.push(id);
        else fail(`'${typeof ref === "string" ? ref : JSON.stringify(ref)}' is not an entry of this account`);
      }
      values[field.handle] = multiple ? ids : ids[0];
      references.set(field.handle, [...new Set(ids)]);
      continue;
    }
    if (field.type === "image") {
      const result = await imageValue(raw, lookup.ctx.loaders.assets(lookup.scope.accountId));
      if ("error" in result) fail(result.error);
      else values[field.handle] = result.value;
      continue;
    }
    const result = normalizeScalar(field, raw);
    if ("error" in result) fail(result.error);
    else values[field.handle] = result.value;
  }
  return { values, references };
}

type Result = { value: unknown } | { error: string };

function normalizeScalar(field: FieldDefinition, raw: unknown): Result {
  switch (field.type) {
    case "text":
    case "rich_text":
    case "raw_html":
    case "template":
      return typeof raw === "string" ? { value: raw } : { error: "must be a string" };
    case "number":
      if (typeof raw !== "number" || !Number.isFinite(raw)) return { error: "must be a number" };
      if (field.options.number_type === "integer" && !Number.isInteger(raw))
        return { error: "must be a whole number" };
      return { value: raw };
    case "toggle":
      return typeof raw === "boolean" ? { value: raw } : { error: "must be true or false" };
    case "enumerate": {
      const choices = field.options.enumerations;
      if (typeof raw !== "string") return { error: "must be a string" };
      if (Array.isArray(choices) && choices.length > 0 && !choices.includes(raw)) {
        return { error: `must be one of ${choices.join(", ")}` };
      }
      return { value: raw };
    }
    case "video":
      return videoValue(raw);
    case "gallery":
      if (!Array.isArray(raw) || !raw.every(isPlainObject))
        return { error: "must be an array of image objects" };
      return { value: raw.map((item) => pick(item, galleryKeys)) };
    case "list":
      return Array.isArray(raw) ? { value: raw } : { error: "must be an array" };
    case "dictionary":
      return isPlainObject(raw) ? { value: raw } : { error: "must be an object" };
    default:
      return { value: raw };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(
    keys.filter((key) => Object.hasOwn(source, key)).map((key) => [key, source[key]]),
  );
}
