// The page at `/` of a host that is no account's domain (src/schema/site/host.ts): what this server is and
// where the APIs and their explorers are, for someone who opened the server's address in a browser. It is
// a 200: the address works, it serves the APIs rather than a site.
import { Response } from "../http/fetch-api.ts";

const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Content Management Service</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style>
</head>
<body>
<h1>Content Management Service</h1>
<p>This server hosts the content of its accounts: their APIs answer here, and each account's public site
is served on the account's own domain.</p>
<ul>
<li><a href="/graphql">/graphql</a>: GraphQL, with the GraphiQL explorer in a browser</li>
<li><a href="/v1/docs">/v1/docs</a>: the REST API reference (<a href="/v1/openapi.json">OpenAPI document</a>)</li>
<li><a href="/healthz">/healthz</a>: health check</li>
</ul>
<p>Every API operation needs an API token: <code>Authorization: Bearer &lt;token&gt;</code>.</p>
</body>
</html>
`;

export function landingPage(): Response {
  return new Response(body, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
}
