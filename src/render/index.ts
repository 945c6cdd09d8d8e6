// The public site of each account, chosen by the Host header. Rendering arrives with the site issue;
// until then every site path is unknown.
export function createSiteHandler() {
  return async function handleSite(_request: Request): Promise<Response> {
    return new Response("Not found\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  };
}
