// The public site's access rule: the account named by the Host (ctx.site(), the root of every site
// query, whose ID is the account filter) and, among entries, only the published ones.

/** Entries a visitor may see. */
export const visible = { published: true } as const;
