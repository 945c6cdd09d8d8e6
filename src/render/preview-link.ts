// A preview link opened on an account's site (`/cms/preview/<token>`, made by `entryPreviewLink`): the
// schema checks the link (signature, expiry, the Host's account) and names its entry; the entry is then
// rendered as its editor's preview is (preview.ts), by a reader of the account the link stands for.
// Nothing here is kept, by this server or anyone else: the page may show what visitors may not see yet,
// and its link stops working when it expires. Search engines are told not to index it.
import { type GraphQLSchema, parse } from "graphql";
import { Response } from "../http/fetch-api.ts";
import { log } from "../log.ts";
import { compiledExecute } from "../schema/compiled-execute.ts";
import { toApiError } from "../schema/errors.ts";
import type { Context } from "../schema/index.ts";
import { type PreviewLinkTarget, previewLinkViewer } from "../schema/previews/verify.ts";
import { renderPreview } from "./preview.ts";

/** `/cms/preview/<token>`: whatever follows is the schema's to judge (a token needs no escaping). */
export const PREVIEW_LINK_PATH = /^\/cms\/preview\/([^/]+)\/?$/;

const linkQuery = parse(/* GraphQL */ `
  query PreviewLink($token: String!) {
    sitePreviewLink(token: $token) {
      account_id
      entry_id
      collection
      handle
    }
  }
`);

// A fresh headers object each time: the response keeps the one it is given, and the server adds the
// body's length to it.
const answer = (body: string, status: number) =>
  new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
    },
  });

export async function servePreviewLink(
  schema: GraphQLSchema,
  ctx: Context,
  token: string,
): Promise<Response> {
  // No read cache: whether a link is valid depends on the time, not only on the data.
  const uncached: Context = { ...ctx, reads: undefined };
  const result = await compiledExecute({
    schema,
    document: linkQuery,
    contextValue: uncached,
    variableValues: { token },
  });
  if (result.errors?.length) throw result.errors[0];
  const link = result.data?.sitePreviewLink as PreviewLinkTarget | null | undefined;
  if (!link) return answer("Not found\n", 404);
  const viewer = previewLinkViewer(link);
  const asLink: Context = { ...uncached, viewer: async () => viewer, caller: `preview\u0000${token}` };
  try {
    const page = await renderPreview(schema, asLink, link.account_id, {
      collection: link.collection,
      handle: link.handle,
    });
    return answer(page.html, page.status);
  } catch (error) {
    const status = toApiError(error).status;
    // The entry was deleted between the check and the render.
    if (status === 404) return answer("Not found\n", 404);
    // A database out of reach: the 503 every transport answers (src/app.ts).
    if (status === 503) throw error;
    log({ level: "warn", msg: "preview render failed", entry: link.entry_id, error: String(error) });
    return answer("This page could not be rendered.\n", 500);
  }
}
