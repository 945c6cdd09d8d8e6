// The public site's access rule: the account named by the Host (ctx.site(), the root of every site
// query, whose ID is the account filter) and, among entries, only the published ones. A preview
// (preview.ts) names the account by a token allowed to read it instead, and may show any entry.

/** Entries a visitor may see. */
export const visible = { published: true } as const;
