// HTTP validators: the tag of a read, and the If-Match check of a write (docs/api-notes.md, "Caching and
// validators").
export { assertCurrent, STALE_IF_MATCH } from "./if-match.ts";
export { type ReadShape, readTag } from "./tag.ts";
