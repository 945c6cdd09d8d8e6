// How many entries a page of a site's list holds (the `query` and `paginate` tags, index pages): on its
// own, without the database, for the render workers (src/render/render-worker.ts) to import.
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;

/** Bounds a template's per_page: 1 to 100, the default when absent or not a number. */
export function perPageOf(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value)) return DEFAULT_PER_PAGE;
  return Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(value)));
}
