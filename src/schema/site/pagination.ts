// The `pagination` object of index pages and of the `query`/`paginate` tags (decisions.md):
// previous_*/next_* are null past the edges.
export interface Pagination {
  current_page: number;
  total_pages: number;
  total_entries: number;
  per_page: number;
  previous_page: number | null;
  next_page: number | null;
  has_previous: boolean;
  has_next: boolean;
  previous_url: string | null;
  next_url: string | null;
}

export function paginationOf(
  page: number,
  perPage: number,
  total: number,
  urlOf: (page: number) => string,
): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const previous = page > 1 ? Math.min(page - 1, totalPages) : null;
  const next = page < totalPages ? page + 1 : null;
  return {
    current_page: page,
    total_pages: totalPages,
    total_entries: total,
    per_page: perPage,
    previous_page: previous,
    next_page: next,
    has_previous: previous !== null,
    has_next: next !== null,
    previous_url: previous ? urlOf(previous) : null,
    next_url: next ? urlOf(next) : null,
  };
}

/** `<path>?page=N`, page 1 being the path itself: the page URLs of `query` and `paginate`. */
export function queryPageUrl(path: string): (page: number) => string {
  return (page) => (page === 1 ? path : `${path}?page=${page}`);
}

/** `<path>/page/N`, page 1 being the path itself: the hosted service's page URLs (`/page/N` under `/`). */
export function pathPageUrl(path: string): (page: number) => string {
  const base = path.replace(/\/page\/\d+\/?$/, "").replace(/\/+$/, "");
  return (page) => (page === 1 ? base || "/" : `${base}/page/${page}`);
}
