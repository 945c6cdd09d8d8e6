// The tool interface's tools, named as the hosted service names them (content-api.md: "a separate tool
// interface"). Each is a schema operation (or, for `*_save`, a lookup and then an update or a create),
// described in one line that tells an assistant when to use it.
import type { GraphQLSchema } from "graphql";
import { fieldTool } from "./field-tool.ts";
import { navigationItemSaveTool } from "./navigation-item-save.ts";
import { navigationSaveTool } from "./navigation-save.ts";
import { previewRenderPathTool } from "./preview-render-path.ts";
import { saveTool } from "./save-tool.ts";
import { sitePreviewTool } from "./site-preview.ts";
import { creates, deletes, readOnly, saves, type Tool } from "./tool.ts";

const collection = {
  name: "collection",
  arg: "collection_id",
  description: "The collection's handle (e.g. blog) or its prefix ID.",
};
const byHandle = (noun: string) => ({ handle: `The ${noun}'s handle (or its ID).` });

export function buildTools(schema: GraphQLSchema): Tool[] {
  const field = (spec: Parameters<typeof fieldTool>[1]) => fieldTool(schema, spec);
  const save = (spec: Parameters<typeof saveTool>[1]) => saveTool(schema, spec);
  return [
    field({
      name: "accounts_list",
      description: "List the accounts this token may use (its own: name, domain, read or write).",
      field: "Query.tokenAccounts",
    }),

    field({
      name: "entries_list",
      description: "List a collection's entries (drafts included), newest first, a page at a time.",
      field: "Query.entries",
      names: { collection: "collection_id" },
      shape: "values",
    }),
    field({
      name: "entries_get",
      description: "Read one entry of a collection by its handle, with its blueprint values.",
      field: "Query.entry",
      names: { collection: "collection_id", handle: "id" },
      described: byHandle("entry"),
      shape: "values",
    }),
    save({
      name: "entries_save",
      description:
        "Create or update an entry by collection and handle: title, published, published_at and blueprint `values`.",
      get: "Query.entry",
      update: "Mutation.entryUpdate",
      create: "Mutation.entryCreate",
      parent: collection,
      payload: "entry",
      noun: "entry",
      shape: "values",
    }),
    field({
      name: "entries_delete",
      description: "Delete an entry of a collection by its handle.",
      field: "Mutation.entryDelete",
      names: { collection: "collection_id", handle: "id" },
      described: byHandle("entry"),
      annotations: deletes,
      shape: "deleted",
    }),
    field({
      name: "entries_query",
      description:
        "Search a collection's published entries with filters on any field, sorting and pages (as the site sees them).",
      field: "Query.contentEntries",
    }),
    field({
      name: "entries_routing_save",
      description:
        "Set (or clear with null) an entry's routing_override, which moves its page to another path.",
      field: "Mutation.entryRoutingUpdate",
      names: { collection: "collection_id", handle: "id" },
      described: byHandle("entry"),
      annotations: saves,
      shape: "values",
    }),

    field({
      name: "collections_list",
      description: "List the site's collections.",
      field: "Query.collections",
    }),
    field({
      name: "collections_get",
      description: "Read one collection (routing, templates, feed settings) by handle.",
      field: "Query.collection",
      names: { handle: "id" },
      described: byHandle("collection"),
    }),
    save({
      name: "collections_save",
      description:
        "Create or update a collection by handle: its name, routing pattern, templates and (on create) blueprint.",
      get: "Query.collection",
      update: "Mutation.collectionUpdate",
      create: "Mutation.collectionCreate",
      payload: "collection",
      noun: "collection",
    }),
    field({
      name: "collections_feed_save",
      description: "Turn a collection's RSS feed on or off and set its path, title, description and size.",
      field: "Mutation.collectionFeedUpdate",
      names: { handle: "id" },
      described: byHandle("collection"),
      annotations: saves,
    }),
    field({
      name: "collections_delete",
      description: "Delete a collection by handle, with all of its entries.",
      field: "Mutation.collectionDelete",
      names: { handle: "id" },
      described: byHandle("collection"),
      annotations: deletes,
      shape: "deleted",
    }),

    field({
      name: "blueprints_list",
      description: "List the blueprints (entry field sets).",
      field: "Query.blueprints",
    }),
    field({
      name: "blueprints_get",
      description: "Read one blueprint and its fields by handle.",
      field: "Query.blueprint",
      names: { handle: "id" },
      described: byHandle("blueprint"),
    }),
    save({
      name: "blueprints_save",
      description:
        "Create or update a blueprint by handle; `fields` given replace the list (matched by field handle).",
      get: "Query.blueprint",
      update: "Mutation.blueprintUpdate",
      create: "Mutation.blueprintCreate",
      noun: "blueprint",
    }),
    field({
      name: "blueprints_delete",
      description: "Delete a blueprint by handle (refused while entries, forms or a global use it).",
      field: "Mutation.blueprintDelete",
      names: { handle: "id" },
      described: byHandle("blueprint"),
      annotations: deletes,
      shape: "deleted",
    }),

    field({
      name: "templates_list",
      description: "List the Liquid layouts, templates and partials, with their source.",
      field: "Query.templates",
    }),
    field({
      name: "templates_get",
      description: "Read one Liquid template's source by handle.",
      field: "Query.template",
      names: { handle: "id" },
      described: byHandle("template"),
    }),
    save({
      name: "templates_save",
      description:
        "Create or update a Liquid template, layout or partial by handle (checked before it is saved).",
      get: "Query.template",
      update: "Mutation.templateUpdate",
      create: "Mutation.templateCreate",
      noun: "template",
    }),
    field({
      name: "templates_delete",
      description: "Delete a template by handle (refused while a collection or entry uses it).",
      field: "Mutation.templateDelete",
      names: { handle: "id" },
      described: byHandle("template"),
      annotations: deletes,
      shape: "deleted",
    }),
    field({
      name: "templates_validate",
      description: "Check Liquid source without saving it: every syntax error with its line.",
      field: "Query.templateValidate",
    }),
    field({
      name: "theme_validate",
      description:
        "Check the whole site: missing templates, orphaned entries, missing published_at under date routing, index pages half set up, duplicate content paths.",
      field: "Query.themeValidate",
    }),
    previewRenderPathTool(schema),

    field({
      name: "assets_list",
      description: "List uploaded files (images, documents), newest first.",
      field: "Query.assets",
    }),
    field({
      name: "assets_get",
      description: "Read one uploaded file's details and URL by ID.",
      field: "Query.asset",
    }),
    field({
      name: "assets_delete",
      description: "Delete an uploaded file by ID.",
      field: "Mutation.assetDelete",
      annotations: deletes,
      shape: "deleted",
    }),
    field({
      name: "assets_upload",
      description: "Upload a file from base64 `data` with its filename, into an optional folder `path`.",
      field: "Mutation.assetCreate",
      omit: ["upload"],
      require: ["data"],
      annotations: creates,
    }),
    field({
      name: "assets_upload_from_url",
      description: "Upload a file the server downloads from a public http(s) URL.",
      field: "Mutation.assetCreateFromUrl",
      annotations: { ...creates, openWorldHint: true },
    }),

    field({
      name: "globals_list",
      description: "List the site-wide global sets and their values.",
      field: "Query.globals",
      shape: "values",
    }),
    field({
      name: "globals_get",
      description: "Read one global set (site-wide values such as a phone number) by handle.",
      field: "Query.global",
      names: { handle: "id" },
      described: byHandle("global"),
      shape: "values",
    }),
    save({
      name: "globals_save",
      description: "Create or update a global set by handle: its name, fields and `values`.",
      get: "Query.global",
      update: "Mutation.globalUpdate",
      create: "Mutation.globalCreate",
      noun: "global",
      shape: "values",
    }),
    field({
      name: "globals_delete",
      description: "Delete a global set by handle (into the trash).",
      field: "Mutation.globalDelete",
      names: { handle: "id" },
      described: byHandle("global"),
      annotations: deletes,
      shape: "deleted",
    }),

    field({ name: "navigations_list", description: "List the site's menus.", field: "Query.navigations" }),
    field({
      name: "navigations_get",
      description: "Read one menu with its item tree by handle.",
      field: "Query.navigation",
      names: { handle: "id" },
      described: byHandle("navigation"),
    }),
    navigationSaveTool(schema),
    field({
      name: "navigations_delete",
      description: "Delete a menu by handle, with its items (into the trash).",
      field: "Mutation.navigationDelete",
      names: { handle: "id" },
      described: byHandle("navigation"),
      annotations: deletes,
      shape: "deleted",
    }),
    field({
      name: "navigation_items_list",
      description:
        "List a menu's items with their links: top-level items with `children`, or every item flat (`all`).",
      field: "Query.navigationItems",
      names: { navigation: "navigation_id" },
      described: { navigation: "The menu's handle (or its nav_ ID)." },
    }),
    navigationItemSaveTool(schema),

    field({ name: "forms_list", description: "List the site's forms.", field: "Query.forms" }),
    field({
      name: "forms_get",
      description: "Read one form (fields, messages, notification settings) by handle.",
      field: "Query.form",
      names: { handle: "id" },
      described: byHandle("form"),
    }),
    save({
      name: "forms_save",
      description:
        "Create or update a form by handle: the collection its submissions go to and its blueprint.",
      get: "Query.form",
      update: "Mutation.formUpdate",
      create: "Mutation.formCreate",
      noun: "form",
    }),
    field({
      name: "forms_notifications_save",
      description: "Turn a form's email notifications on or off and set who receives them.",
      field: "Mutation.formNotificationsUpdate",
      names: { handle: "id" },
      described: byHandle("form"),
      annotations: saves,
    }),
    field({
      name: "forms_delete",
      description: "Delete a form by handle (into the trash; its submissions stay).",
      field: "Mutation.formDelete",
      names: { handle: "id" },
      described: byHandle("form"),
      annotations: deletes,
      shape: "deleted",
    }),

    field({
      name: "entries_preview_link",
      description:
        "Make a signed link that shows an entry (draft or scheduled) on the site, for people without a token, until it expires.",
      field: "Mutation.entryPreviewLink",
      names: { collection: "collection_id", handle: "id" },
      described: byHandle("entry"),
    }),

    field({
      name: "trash_list",
      description:
        "List deleted records (entries, globals, templates, menus, forms, files) that can still be restored.",
      field: "Query.trash",
    }),
    field({
      name: "trash_restore",
      description:
        "Bring a deleted record back from the trash by its trash item ID, with its ID, handle and links.",
      field: "Mutation.trashRestore",
      annotations: creates,
      shape: "values",
    }),
    field({
      name: "trash_purge",
      description: "Delete a trash item for good (a file's bytes and a record's revisions with it).",
      field: "Mutation.trashPurge",
      annotations: deletes,
      shape: "deleted",
    }),

    field({
      name: "entries_revisions_list",
      description: "List an entry's saved revisions (number, when, which token), newest first.",
      field: "Query.entryRevisions",
      names: { collection: "collection_id", handle: "id" },
      described: byHandle("entry"),
    }),
    field({
      name: "entries_revisions_get",
      description: "Read one revision of an entry: its fields and values as they were then.",
      field: "Query.entryRevision",
      names: { collection: "collection_id", handle: "id" },
      described: byHandle("entry"),
    }),
    field({
      name: "entries_revisions_restore",
      description:
        "Put an entry back as it was in one of its revisions (the current state stays in history).",
      field: "Mutation.entryRevisionRestore",
      names: { collection: "collection_id", handle: "id" },
      described: byHandle("entry"),
      annotations: saves,
      shape: "values",
    }),
    field({
      name: "globals_revisions_list",
      description: "List a global set's saved revisions (number, when, which token), newest first.",
      field: "Query.globalRevisions",
      names: { handle: "id" },
      described: byHandle("global"),
    }),
    field({
      name: "globals_revisions_get",
      description: "Read one revision of a global set: its fields and values as they were then.",
      field: "Query.globalRevision",
      names: { handle: "id" },
      described: byHandle("global"),
    }),
    field({
      name: "globals_revisions_restore",
      description:
        "Put a global set back as it was in one of its revisions (the current state stays in history).",
      field: "Mutation.globalRevisionRestore",
      names: { handle: "id" },
      described: byHandle("global"),
      annotations: saves,
      shape: "values",
    }),
    field({
      name: "templates_revisions_list",
      description: "List a Liquid template's saved revisions (number, when, which token), newest first.",
      field: "Query.templateRevisions",
      names: { handle: "id" },
      described: byHandle("template"),
    }),
    field({
      name: "templates_revisions_get",
      description: "Read one revision of a Liquid template: its source as it was then.",
      field: "Query.templateRevision",
      names: { handle: "id" },
      described: byHandle("template"),
    }),
    field({
      name: "templates_revisions_restore",
      description:
        "Put a Liquid template back as it was in one of its revisions (the current source stays in history).",
      field: "Mutation.templateRevisionRestore",
      names: { handle: "id" },
      described: byHandle("template"),
      annotations: saves,
    }),

    field({
      name: "webhooks_list",
      description: "List the account's webhooks (URL, events, enabled), newest first; never their secrets.",
      field: "Query.webhooks",
      access: "write",
      annotations: readOnly,
    }),
    field({
      name: "webhooks_get",
      description: "Read one webhook by its ID (whk_...).",
      field: "Query.webhook",
      access: "write",
      annotations: readOnly,
    }),
    field({
      name: "webhooks_create",
      description:
        'Add a webhook: a URL that receives signed POSTs for the events named (or ["*"]); answers its secret once.',
      field: "Mutation.webhookCreate",
      annotations: creates,
    }),
    field({
      name: "webhooks_update",
      description: "Change a webhook's URL, events, enabled flag or description by its ID.",
      field: "Mutation.webhookUpdate",
      annotations: saves,
    }),
    field({
      name: "webhooks_delete",
      description: "Delete a webhook by its ID; its pending deliveries are dropped.",
      field: "Mutation.webhookDelete",
      annotations: deletes,
      shape: "deleted",
    }),
    field({
      name: "webhooks_rotate_secret",
      description:
        "Give a webhook a new signing secret (answered once); later deliveries are signed with it.",
      field: "Mutation.webhookRotateSecret",
      annotations: creates,
    }),
    field({
      name: "webhooks_deliveries_list",
      description:
        "List a webhook's deliveries, newest first: event, status, attempts, last answer or error.",
      field: "Query.webhookDeliveries",
      access: "write",
      annotations: readOnly,
    }),
    field({
      name: "webhooks_deliveries_redeliver",
      description: "Send one of a webhook's deliveries again now (same webhook-id, same body).",
      field: "Mutation.webhookRedeliver",
      annotations: creates,
    }),

    field({
      name: "import_jobs_get",
      description:
        "Read a site import answered 202 (a job): status, phase, progress in entries, then its report or error.",
      field: "Query.importJob",
      annotations: readOnly,
    }),

    sitePreviewTool(schema),
  ];
}
