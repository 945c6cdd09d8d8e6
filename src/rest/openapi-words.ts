// The words of the document about each operation: its tag, its summary, and its description where the
// schema field has none.
import type { Route } from "./routes.ts";

/** An operation's tag: that of the last resource its path names (`/entries/{id}/revisions` is Revisions). */
const tagOf: Record<string, string> = {
  collections: "Collections",
  entries: "Entries",
  blueprints: "Blueprints",
  templates: "Templates",
  navigations: "Navigations",
  items: "Navigation items",
  forms: "Forms",
  globals: "Globals",
  assets: "Assets",
  trash: "Trash",
  revisions: "Revisions",
  webhooks: "Webhooks",
  deliveries: "Webhooks",
};

/** The document's tags, each once. */
export const tagNames = [...new Set(Object.values(tagOf))];

export function tagFor(route: Route): string {
  const segments = route.path.split("/").filter((segment) => segment && !segment.startsWith(":"));
  const resource = segments.reverse().find((segment) => tagOf[segment]);
  if (!resource) throw new Error(`${route.path} names no resource with a tag`);
  return tagOf[resource] as string;
}

/** What an operation does, where its schema field says nothing: its answer, by method and shape. */
export function describeRoute(route: Route): string {
  const one = route.path.endsWith(":id");
  const target = one ? "The record named by `id` (its prefix ID, or its handle where it has one)" : "";
  switch (route.method) {
    case "GET":
      return one ? `${target}.` : `A page of the records, with \`pagination\`.`;
    case "POST":
      if (route.answer === "upsert")
        return "Creates the record (201); when one with the same handle exists, updates it instead (200).";
      if (route.answer === "created") return "Creates the record (201) and answers it.";
      return `${route.summary ?? "Runs the operation"}; answers 200 with the result.`;
    case "PUT":
      return `${target}, with the fields sent changed (the others kept); PATCH does the same. Answers the record.`;
    case "DELETE":
      return `${target} deleted (204, no body).`;
  }
}

function resourceOf(route: Route): string {
  const segments = route.path.split("/").filter((segment) => segment && !segment.startsWith(":"));
  return segments[segments.length - 1] ?? "";
}

export function summary(route: Route): string {
  if (route.summary) return route.summary;
  const resource = resourceOf(route);
  const one = route.path.endsWith(":id");
  const singular = resource === "entries" ? "entry" : resource.replace(/s$/, "");
  const a = `${/^[aeiou]/.test(singular) ? "an" : "a"} ${singular}`;
  switch (route.method) {
    case "GET":
      return one ? `Get ${a}` : `List ${resource}`;
    case "POST":
      return route.answer === "upsert" ? `Create ${a}, or update the one with its handle` : `Create ${a}`;
    case "PUT":
      return `Update ${a}`;
    case "DELETE":
      return `Delete ${a}`;
  }
}
