// The REST contract (content-api.md, "Endpoints"): each path and method, the schema field it projects,
// and how its answer maps onto the contract. PATCH is served by the PUT route (decisions.md).
export type Answer =
  /** The field's result as is. */
  | "result"
  /** A create that always creates: 201. */
  | "created"
  /** A create-by-handle payload `{created, <record>}`: 201 with the record, or 200 when it updated. */
  | "upsert"
  /** A delete: 204 with no body. */
  | "deleted";

export interface Route {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  field: `Query.${string}` | `Mutation.${string}`;
  answer: Answer;
  /**
   * The payload key holding the record: an "upsert" answers that record alone; a "result" with
   * `spreadValues` answers the payload with that record's values spread.
   */
  record?: string;
  /** The resource returns its blueprint values as top-level keys (the `values` field spread). */
  spreadValues?: boolean;
  /** The body may wrap the fields in this key, as in `{ template: { html } }`. */
  wrapper?: string;
  /** Also takes a multipart/form-data upload (parts `file` and `path`). */
  upload?: boolean;
  /** The OpenAPI summary, where the one made from the method and path would mislead. */
  summary?: string;
}

const account = "/accounts/:account_id";

export const routes: Route[] = [
  { method: "GET", path: `${account}/collections`, field: "Query.collections", answer: "result" },
  { method: "GET", path: `${account}/collections/:id`, field: "Query.collection", answer: "result" },
  {
    method: "POST",
    path: `${account}/collections`,
    field: "Mutation.collectionCreate",
    answer: "upsert",
    record: "collection",
  },
  { method: "PUT", path: `${account}/collections/:id`, field: "Mutation.collectionUpdate", answer: "result" },
  {
    method: "DELETE",
    path: `${account}/collections/:id`,
    field: "Mutation.collectionDelete",
    answer: "deleted",
  },

  {
    method: "GET",
    path: `${account}/collections/:collection_id/entries`,
    field: "Query.entries",
    answer: "result",
    spreadValues: true,
  },
  {
    method: "GET",
    path: `${account}/collections/:collection_id/entries/:id`,
    field: "Query.entry",
    answer: "result",
    spreadValues: true,
  },
  {
    method: "POST",
    path: `${account}/collections/:collection_id/entries`,
    field: "Mutation.entryCreate",
    answer: "upsert",
    record: "entry",
    spreadValues: true,
  },
  {
    method: "PUT",
    path: `${account}/collections/:collection_id/entries/:id`,
    field: "Mutation.entryUpdate",
    answer: "result",
    spreadValues: true,
  },
  {
    method: "DELETE",
    path: `${account}/collections/:collection_id/entries/:id`,
    field: "Mutation.entryDelete",
    answer: "deleted",
  },

  { method: "GET", path: `${account}/blueprints`, field: "Query.blueprints", answer: "result" },
  { method: "GET", path: `${account}/blueprints/:id`, field: "Query.blueprint", answer: "result" },
  { method: "POST", path: `${account}/blueprints`, field: "Mutation.blueprintCreate", answer: "created" },
  { method: "PUT", path: `${account}/blueprints/:id`, field: "Mutation.blueprintUpdate", answer: "result" },
  {
    method: "DELETE",
    path: `${account}/blueprints/:id`,
    field: "Mutation.blueprintDelete",
    answer: "deleted",
  },

  { method: "GET", path: `${account}/templates`, field: "Query.templates", answer: "result" },
  { method: "GET", path: `${account}/templates/:id`, field: "Query.template", answer: "result" },
  {
    method: "POST",
    path: `${account}/templates`,
    field: "Mutation.templateCreate",
    answer: "created",
    wrapper: "template",
  },
  {
    method: "PUT",
    path: `${account}/templates/:id`,
    field: "Mutation.templateUpdate",
    answer: "result",
    wrapper: "template",
  },
  { method: "DELETE", path: `${account}/templates/:id`, field: "Mutation.templateDelete", answer: "deleted" },

  { method: "GET", path: `${account}/navigations`, field: "Query.navigations", answer: "result" },
  { method: "GET", path: `${account}/navigations/:id`, field: "Query.navigation", answer: "result" },
  {
    method: "POST",
    path: `${account}/navigations`,
    field: "Mutation.navigationCreate",
    answer: "upsert",
    record: "navigation",
  },
  { method: "PUT", path: `${account}/navigations/:id`, field: "Mutation.navigationUpdate", answer: "result" },
  {
    method: "DELETE",
    path: `${account}/navigations/:id`,
    field: "Mutation.navigationDelete",
    answer: "deleted",
  },

  {
    method: "GET",
    path: `${account}/navigations/:navigation_id/items`,
    field: "Query.navigationItems",
    answer: "result",
  },
  {
    method: "GET",
    path: `${account}/navigations/:navigation_id/items/:id`,
    field: "Query.navigationItem",
    answer: "result",
  },
  {
    method: "POST",
    path: `${account}/navigations/:navigation_id/items`,
    field: "Mutation.navigationItemCreate",
    answer: "upsert",
    record: "item",
  },
  {
    method: "PUT",
    path: `${account}/navigations/:navigation_id/items/:id`,
    field: "Mutation.navigationItemUpdate",
    answer: "result",
  },
  {
    method: "DELETE",
    path: `${account}/navigations/:navigation_id/items/:id`,
    field: "Mutation.navigationItemDelete",
    answer: "deleted",
  },

  { method: "GET", path: `${account}/forms`, field: "Query.forms", answer: "result" },
  { method: "GET", path: `${account}/forms/:id`, field: "Query.form", answer: "result" },
  { method: "POST", path: `${account}/forms`, field: "Mutation.formCreate", answer: "created" },
  { method: "PUT", path: `${account}/forms/:id`, field: "Mutation.formUpdate", answer: "result" },
  { method: "DELETE", path: `${account}/forms/:id`, field: "Mutation.formDelete", answer: "deleted" },

  { method: "GET", path: `${account}/globals`, field: "Query.globals", answer: "result", spreadValues: true },
  {
    method: "GET",
    path: `${account}/globals/:id`,
    field: "Query.global",
    answer: "result",
    spreadValues: true,
  },
  {
    method: "POST",
    path: `${account}/globals`,
    field: "Mutation.globalCreate",
    answer: "created",
    spreadValues: true,
  },
  {
    method: "PUT",
    path: `${account}/globals/:id`,
    field: "Mutation.globalUpdate",
    answer: "result",
    spreadValues: true,
  },
  { method: "DELETE", path: `${account}/globals/:id`, field: "Mutation.globalDelete", answer: "deleted" },

  { method: "GET", path: `${account}/assets`, field: "Query.assets", answer: "result" },
  { method: "GET", path: `${account}/assets/:id`, field: "Query.asset", answer: "result" },
  {
    method: "POST",
    path: `${account}/assets`,
    field: "Mutation.assetCreate",
    answer: "created",
    wrapper: "asset",
    upload: true,
  },
  {
    method: "PUT",
    path: `${account}/assets/:id`,
    field: "Mutation.assetUpdate",
    answer: "result",
    wrapper: "asset",
  },
  { method: "DELETE", path: `${account}/assets/:id`, field: "Mutation.assetDelete", answer: "deleted" },

  // Previews: a signed link to an unpublished entry's page (docs/api-notes.md, "Preview links").
  {
    method: "POST",
    path: `${account}/collections/:collection_id/entries/:id/preview`,
    field: "Mutation.entryPreviewLink",
    answer: "result",
  },

  // Trash: deleted records kept for TRASH_KEEP_DAYS days (docs/api-notes.md, "Trash").
  {
    method: "GET",
    path: `${account}/trash`,
    field: "Query.trash",
    answer: "result",
    summary: "List deleted records",
  },
  {
    method: "POST",
    path: `${account}/trash/:id/restore`,
    field: "Mutation.trashRestore",
    answer: "result",
    record: "record",
    spreadValues: true,
    summary: "Restore a deleted record",
  },
  {
    method: "DELETE",
    path: `${account}/trash/:id`,
    field: "Mutation.trashPurge",
    answer: "deleted",
    summary: "Purge a trash item",
  },
  // Revisions: every saved state of an entry, a global or a template, newest first; a restore answers the
  // record as restored (and records a revision). A revision's `state` keeps its values under `values`.
  {
    method: "GET",
    path: `${account}/collections/:collection_id/entries/:id/revisions`,
    field: "Query.entryRevisions",
    answer: "result",
    summary: "List an entry's revisions",
  },
  {
    method: "GET",
    path: `${account}/collections/:collection_id/entries/:id/revisions/:revision`,
    field: "Query.entryRevision",
    answer: "result",
    summary: "Get a revision of an entry",
  },
  {
    method: "POST",
    path: `${account}/collections/:collection_id/entries/:id/revisions/:revision/restore`,
    field: "Mutation.entryRevisionRestore",
    answer: "result",
    spreadValues: true,
    summary: "Restore an entry to a revision",
  },
  {
    method: "GET",
    path: `${account}/globals/:id/revisions`,
    field: "Query.globalRevisions",
    answer: "result",
    summary: "List a global's revisions",
  },
  {
    method: "GET",
    path: `${account}/globals/:id/revisions/:revision`,
    field: "Query.globalRevision",
    answer: "result",
    summary: "Get a revision of a global",
  },
  {
    method: "POST",
    path: `${account}/globals/:id/revisions/:revision/restore`,
    field: "Mutation.globalRevisionRestore",
    answer: "result",
    spreadValues: true,
    summary: "Restore a global to a revision",
  },
  {
    method: "GET",
    path: `${account}/templates/:id/revisions`,
    field: "Query.templateRevisions",
    answer: "result",
    summary: "List a template's revisions",
  },
  {
    method: "GET",
    path: `${account}/templates/:id/revisions/:revision`,
    field: "Query.templateRevision",
    answer: "result",
    summary: "Get a revision of a template",
  },
  {
    method: "POST",
    path: `${account}/templates/:id/revisions/:revision/restore`,
    field: "Mutation.templateRevisionRestore",
    answer: "result",
    summary: "Restore a template to a revision",
  },
  // Webhooks (docs/webhooks.md): configuration, the delivery log and redelivery; a write token only.
  { method: "GET", path: `${account}/webhooks`, field: "Query.webhooks", answer: "result" },
  { method: "GET", path: `${account}/webhooks/:id`, field: "Query.webhook", answer: "result" },
  { method: "POST", path: `${account}/webhooks`, field: "Mutation.webhookCreate", answer: "created" },
  { method: "PUT", path: `${account}/webhooks/:id`, field: "Mutation.webhookUpdate", answer: "result" },
  { method: "DELETE", path: `${account}/webhooks/:id`, field: "Mutation.webhookDelete", answer: "deleted" },
  {
    method: "POST",
    path: `${account}/webhooks/:id/rotate_secret`,
    field: "Mutation.webhookRotateSecret",
    answer: "result",
    summary: "Rotate a webhook's signing secret",
  },
  {
    method: "GET",
    path: `${account}/webhooks/:id/deliveries`,
    field: "Query.webhookDeliveries",
    answer: "result",
    summary: "List a webhook's deliveries",
  },
  {
    method: "POST",
    path: `${account}/webhooks/:id/deliveries/:delivery/redeliver`,
    field: "Mutation.webhookRedeliver",
    answer: "result",
    summary: "Send a delivery again",
  },
];

/** The route of each root field: sofa's router answers with the field's document (run-route.ts). */
export const routeOfField: ReadonlyMap<string, Route> = new Map(routes.map((route) => [route.field, route]));
