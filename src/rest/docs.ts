// The reference page at /v1/docs: a plain HTML reference of the OpenAPI document, rendered once on the
// server (readable with no script), which Swagger UI replaces in the browser. Swagger UI is served from
// the installed swagger-ui-dist package, so the page works on a machine with no internet.
import { packageFiles } from "../http/package-files.ts";
import type { JsonSchema, OpenApiDocument, Operation } from "./openapi.ts";

/** Swagger UI's script and style, at `/v1/docs/swagger-ui-dist@<version>/<file>`. */
export const swaggerUiFiles = packageFiles("swagger-ui-dist", "/v1/docs", [
  "swagger-ui.css",
  "swagger-ui-bundle.js",
]);

export function docsPage(document: OpenApiDocument): string {
  const server = document.servers[0]?.url ?? "";
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      // Every operation has one tag (openapi.ts), declared in the document's list.
      const tag = operation.tags[0] ?? "";
      const list = byTag.get(tag) ?? [];
      list.push(operationHtml(method, `${server}${path}`, operation));
      byTag.set(tag, list);
    }
  }
  const sections = document.tags
    .filter((tag) => byTag.has(tag.name))
    .map((tag) => `<h2>${esc(tag.name)}</h2>\n${(byTag.get(tag.name) ?? []).join("\n")}`)
    .join("\n");
  const schemas = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<details id="schema-${esc(name)}"><summary>${esc(name)}</summary>${code(schema)}</details>`,
    )
    .join("\n");
  const title = esc(String(document.info.title ?? "API"));

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}: REST reference</title>
<link rel="stylesheet" href="${swaggerUiFiles.url("swagger-ui.css")}">
<style>
#reference{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}
#reference code,#reference pre{font-family:ui-monospace,monospace;font-size:.85rem}
#reference pre{background:#f4f4f4;padding:.5rem;overflow:auto}
#reference details{margin:.4rem 0}#reference summary{cursor:pointer}
#reference .method{display:inline-block;min-width:4.5rem;font-weight:bold}
</style>
</head>
<body>
<div id="swagger-ui"><main id="reference">
<h1>${title}</h1>
<p>${esc(String(document.info.description ?? ""))}</p>
<p>The OpenAPI document: <a href="openapi.json">openapi.json</a>. Every operation needs
<code>Authorization: Bearer &lt;token&gt;</code>; every error answer is the <a href="#schema-Error">Error</a> body.</p>
${sections}
<h2>Schemas</h2>
${schemas}
</main></div>
<script src="${swaggerUiFiles.url("swagger-ui-bundle.js")}"></script>
<script>
if (window.SwaggerUIBundle) {
  window.ui = SwaggerUIBundle({ url: "openapi.json", dom_id: "#swagger-ui", displayOperationId: true,
    defaultModelRendering: "model", defaultModelExpandDepth: 3, defaultModelsExpandDepth: 1,
    validatorUrl: null });
}
</script>
</body>
</html>
`;
}

function operationHtml(method: string, path: string, operation: Operation): string {
  const parameters = operation.parameters
    .map(
      (p) =>
        `<li><code>${esc(String(p.name))}</code> (${esc(String(p.in))}${p.required ? ", required" : ""}): ${esc(String(p.description ?? ""))}</li>`,
    )
    .join("");
  const body = operation.requestBody
    ? Object.entries(operation.requestBody.content)
        .map(([type, media]) => {
          const named = schemaName(media.schema);
          const label = `Body <code>${esc(type)}</code>:`;
          return named ? `<p>${label} ${named}</p>` : `<p>${label}</p>${code(media.schema)}`;
        })
        .join("")
    : "";
  const responses = Object.entries(operation.responses)
    .map(([status, response]) => {
      if ("$ref" in response)
        return `<li>${status}: ${esc(response.$ref.split("/").pop() ?? "")} (<a href="#schema-Error">Error</a>)</li>`;
      const schema = response.content?.["application/json"]?.schema;
      return `<li>${status}: ${esc(response.description)}${schema ? ` ${schemaName(schema)}` : ""}</li>`;
    })
    .join("");
  return `<details><summary><span class="method">${method.toUpperCase()}</span> <code>${esc(path)}</code>: ${esc(operation.summary ?? "")}</summary>
${operation.description ? `<p>${esc(operation.description)}</p>` : ""}
${parameters ? `<p>Parameters:</p><ul>${parameters}</ul>` : ""}${body}<p>Responses:</p><ul>${responses}</ul></details>`;
}

function schemaName(schema: JsonSchema): string {
  const target = typeof schema.$ref === "string" ? schema.$ref.split("/").pop() : undefined;
  return target ? `<a href="#schema-${esc(target)}">${esc(target)}</a>` : "";
}

/** A schema as JSON, its references to other schemas turned into links to them. */
function code(value: unknown): string {
  const json = esc(JSON.stringify(value, null, 2));
  const linked = json.replace(
    /&#34;\$ref&#34;: &#34;#\/components\/schemas\/([\w.-]+)&#34;/g,
    (_, name: string) => `&#34;$ref&#34;: <a href="#schema-${name}">${name}</a>`,
  );
  return `<pre>${linked}</pre>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
