// Preview links: signed links that show an unpublished entry on the account's site (docs/api-notes.md).
import "./create.ts";
import "./verify.ts";
