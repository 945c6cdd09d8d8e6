// Revisions of entries, globals and templates: recorded by the writes themselves
// (record.ts); read and restored by these operations (one module per resource and kind).
import "./entry-revisions.ts";
import "./entry-restore.ts";
import "./global-revisions.ts";
import "./global-restore.ts";
import "./template-revisions.ts";
import "./template-restore.ts";
