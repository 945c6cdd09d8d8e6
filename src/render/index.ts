// The public site of each account, chosen by the Host header. Asset files are served at their URLs;
// page rendering arrives with the site issue, and until then every other site path is unknown.
import type { Context } from "../schema/index.ts";
import { ASSETS_PREFIX, serveAsset } from "./assets.ts";

export function createSiteHandler() {
  return async function handleSite(request: Request, ctx: Context): Promise<Response> {
    if (new URL(request.url).pathname.startsWith(ASSETS_PREFIX)) return serveAsset(request, ctx);
    return new Response("Not found\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  };
}
