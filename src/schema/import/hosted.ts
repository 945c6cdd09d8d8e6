// The hosted service's export.yaml (what its Rakefile's `import_yaml` reads), turned into the sections
// of `cms-site/1` where the structures match: each top-level list of records with handles is a
// collection of entries (its routing and templates read from `content_paths`), `navigation` holds menus
// by handle, `forms` forms by handle, `site`, `site_settings` and `globals` hold globals' values. Its
// records carry no blueprints: each collection's and global's fields are inferred from the values. What
// has no place here (IDs, a form's field list, content paths that say nothing new) is named in `skipped`.
import { globalReservedHandles, reservedFieldHandles } from "../blueprints/fields.ts";
import { globalHandleFromName } from "../globals/handles.ts";
import { handleFromTitle } from "../handles.ts";

type Data = Record<string, unknown>;

const RESERVED = new Set([
  "content_paths",
  "navigation",
  "forms",
  "site",
  "site_settings",
  "globals",
  "collections",
]);
/** An entry's own keys in the hosted file; the rest are its values. */
const CORE = new Set(["id", "title", "handle", "content_path", "published", "published_at", "position"]);
const FIELD_HANDLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

interface ContentPath {
  path: string;
  collection: string;
  entry: string | undefined;
  template: string | undefined;
  layout: string | undefined;
}

export function fromHosted(file: Data): { converted: Data; skipped: string[] } {
  const skipped: string[] = [];
  const paths = contentPaths(file.content_paths);
  const lists = collectionLists(file, skipped);
  // Which collection holds each entry handle, for references written as `{handle, content_path}`.
  const owner = new Map<string, string>();
  for (const [collection, records] of lists)
    for (const record of records) if (typeof record.handle === "string") owner.set(record.handle, collection);
  const collections = [];
  const entries: Data = {};
  const usedPaths = new Set<string>();
  for (const [handle, records] of lists) {
    const ownPaths = paths.filter((path) => path.collection === handle);
    const routing = routingOf(handle, ownPaths);
    const index = ownPaths.find((path) => path.entry === undefined);
    if (index) usedPaths.add(index.path);
    const fields = new Map<string, Data>();
    const converted = records.map((record, position) =>
      entryOf(handle, record, position, { routing, paths: ownPaths, owner, fields, usedPaths, skipped }),
    );
    collections.push({
      handle,
      name: humanized(handle),
      routing,
      ...(index && { index_routing: index.path.replace(/^\//, "") }),
      blueprints: [{ handle, title: humanized(handle), fields: [...fields.values()] }],
    });
    entries[handle] = converted;
  }
  const unused = paths.filter((path) => !usedPaths.has(path.path) && path.entry !== undefined).length;
  if (paths.length > 0)
    skipped.push(
      `content_paths: their templates and layouts (the hosted service's themes are not part of its export)${unused > 0 ? `; ${unused} paths of entries the file does not hold` : ""}`,
    );
  return {
    converted: {
      collections,
      entries,
      navigations: navigationsOf(file.navigation, skipped),
      forms: formsOf(file.forms, lists, skipped),
      globals: globalsOf(file, owner, skipped),
    },
    skipped,
  };
}

function contentPaths(value: unknown): ContentPath[] {
  if (!isData(value)) return [];
  return Object.entries(value).flatMap(([path, config]) => {
    if (!isData(config) || typeof config.content_key !== "string") return [];
    const content = typeof config.content === "string" ? config.content : undefined;
    return [
      {
        path: path.startsWith("/") ? path : `/${path}`,
        collection: config.content_key,
        entry: content === "_index" ? undefined : content,
        template: typeof config.template === "string" ? config.template : undefined,
        layout: typeof config.layout === "string" ? config.layout : undefined,
      },
    ];
  });
}

/** Lists of records with handles: under `collections`, or (as the Rakefile reads them) at the top. */
function collectionLists(file: Data, skipped: string[]): Map<string, Data[]> {
  const lists = new Map<string, Data[]>();
  const candidates = [
    ...(isData(file.collections) ? Object.entries(file.collections) : []),
    ...Object.entries(file).filter(([key]) => !RESERVED.has(key)),
  ];
  for (const [key, value] of candidates) {
    if (Array.isArray(value) && value.every((record) => isData(record) && typeof record.handle === "string"))
      lists.set(key, value as Data[]);
    else skipped.push(`${key}: not a list of records with handles`);
  }
  return lists;
}

/** `blog/:handle` when an entry's path ends in its handle below a common prefix; else `<handle>/:handle`. */
function routingOf(collection: string, paths: ContentPath[]): string {
  const sample = paths.find((path) => path.entry && path.path.endsWith(`/${path.entry}`));
  if (!sample?.entry) return `${collection}/:handle`;
  const prefix = sample.path.slice(1, -sample.entry.length - 1);
  return prefix ? `${prefix}/:handle` : ":handle";
}

interface EntryContext {
  routing: string;
  paths: ContentPath[];
  owner: Map<string, string>;
  fields: Map<string, Data>;
  usedPaths: Set<string>;
  skipped: string[];
}

function entryOf(collection: string, record: Data, index: number, context: EntryContext): Data {
  const handle = String(record.handle);
  const values: Data = {};
  for (const [key, value] of Object.entries(record)) {
    if (CORE.has(key) || value == null) continue;
    if (!FIELD_HANDLE.test(key) || reservedFieldHandles.has(key)) {
      context.skipped.push(`${collection}[${index}].${key}: not a field name`);
      continue;
    }
    const converted = fieldValue(value, context.owner);
    values[key] = converted.value;
    if (!context.fields.has(key))
      context.fields.set(key, {
        handle: key,
        type: converted.type,
        ...(converted.options && { options: converted.options }),
      });
  }
  const expected = `/${context.routing.replace(":handle", handle)}`;
  const stated = typeof record.content_path === "string" ? record.content_path : undefined;
  const known = context.paths.find((path) => path.entry === handle);
  if (known) context.usedPaths.add(known.path);
  const path = stated ?? known?.path;
  return {
    handle,
    title: typeof record.title === "string" && record.title.trim() ? record.title : handle,
    published: record.published !== false,
    published_at: record.published_at ?? null,
    ...(typeof record.position === "number" && { position: record.position }),
    ...(path && path !== expected && path !== "/" && { routing_override: path.replace(/^\/|\/$/g, "") }),
    values,
  };
}

/** A value and the field type that holds it: references (`{handle}` objects) become entity fields. */
function fieldValue(
  value: unknown,
  owner: Map<string, string>,
): { value: unknown; type: string; options?: Data } {
  const reference = (ref: Data) => {
    const collection = typeof ref.collection === "string" ? ref.collection : owner.get(String(ref.handle));
    return collection ? `${collection}:${ref.handle}` : String(ref.handle);
  };
  const isRef = (item: unknown): item is Data =>
    isData(item) && typeof item.handle === "string" && !("body" in item);
  if (Array.isArray(value) && value.length > 0 && value.every(isRef))
    return { value: value.map(reference), type: "entity", options: { multiple: true } };
  if (isRef(value)) return { value: reference(value), type: "entity" };
  if (typeof value === "boolean") return { value, type: "toggle" };
  if (typeof value === "number") return { value, type: "number" };
  if (Array.isArray(value)) return { value, type: "list" };
  if (isData(value)) return { value, type: "dictionary" };
  const text = String(value);
  return { value: text, type: /<[a-z][^>]*>/i.test(text) ? "rich_text" : "text" };
}

function navigationsOf(value: unknown, skipped: string[]): Data[] {
  if (value == null) return [];
  if (!isData(value)) {
    skipped.push("navigation: not a mapping of menus by handle");
    return [];
  }
  return Object.entries(value).map(([handle, items]) => ({
    handle: handleFromTitle(handle, "menu"),
    title: humanized(handle),
    items: Array.isArray(items) ? items.map(itemOf) : [],
  }));
}

function itemOf(item: unknown): Data {
  const data = isData(item) ? item : {};
  const children = Array.isArray(data.children) ? data.children.map(itemOf) : [];
  return {
    title: typeof data.title === "string" ? data.title : "Untitled",
    url: typeof data.url === "string" ? data.url : null,
    ...(children.length > 0 && { children }),
  };
}

function formsOf(value: unknown, lists: Map<string, Data[]>, skipped: string[]): Data[] {
  if (value == null) return [];
  if (!isData(value)) {
    skipped.push("forms: not a mapping of forms by handle");
    return [];
  }
  return Object.entries(value).flatMap(([handle, config]) => {
    if (!isData(config)) return [];
    const collection = typeof config.collection === "string" ? config.collection : handle;
    if (!lists.has(collection)) {
      skipped.push(`forms.${handle}: its collection '${collection}' is not in the file`);
      return [];
    }
    if (config.fields !== undefined)
      skipped.push(`forms.${handle}.fields: a form's fields are its blueprint's here`);
    return [
      {
        handle,
        title: typeof config.title === "string" ? config.title : humanized(handle),
        collection_handle: collection,
        blueprint_handle: typeof config.blueprint === "string" ? config.blueprint : collection,
        honeypot_enabled: config.honeypot_enabled === true,
        redirect_url:
          typeof config.redirect_url === "string" && config.redirect_url ? config.redirect_url : null,
        success_message:
          typeof config.success_message === "string" && config.success_message
            ? config.success_message
            : null,
      },
    ];
  });
}

function globalsOf(file: Data, owner: Map<string, string>, skipped: string[]): Data[] {
  const sources: [string, unknown][] = [
    ["site", file.site],
    ["site_settings", file.site_settings],
    ...(isData(file.globals) ? Object.entries(file.globals) : []),
  ];
  return sources.flatMap(([key, data]) => {
    if (data == null) return [];
    if (!isData(data)) {
      skipped.push(`${key}: a global's values must be a mapping`);
      return [];
    }
    const fields: Data[] = [];
    const values: Data = {};
    for (const [field, value] of Object.entries(data)) {
      if (field === "title" || value == null) continue; // the global's name
      if (!FIELD_HANDLE.test(field) || globalReservedHandles.has(field)) {
        skipped.push(`${key}.${field}: not a field of a global here`);
        continue;
      }
      const converted = fieldValue(value, owner);
      values[field] = converted.value;
      fields.push({
        handle: field,
        type: converted.type,
        ...(converted.options && { options: converted.options }),
      });
    }
    const name = typeof data.title === "string" ? data.title : humanized(key);
    return [{ handle: globalHandleFromName(key) || "site", name, fields, values }];
  });
}

function humanized(handle: string): string {
  const words = handle.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isData(value: unknown): value is Data {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
