// `content_for_header`: SEO meta (title, description, canonical URL), schema.org JSON-LD of the
// collection's `schema_type` (else WebPage), the hosted service's `content_path` meta (the page's path
// without its leading slash, `index` for the home page) and the CMS stylesheet and script.

import { escapeHtml } from "./html.ts";
import { CMS_ASSETS } from "./tags.ts";

/** JSON inside <script> must not be able to close the element. */
const safeJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

export interface HeadInput {
  title: string;
  description?: string;
  canonical: string;
  schemaType: string | null;
  publishedAt?: unknown;
  /** The path shown, as the URL has it. */
  path: string;
}

export function contentForHeader({
  title,
  description,
  canonical,
  schemaType,
  publishedAt,
  path,
}: HeadInput): string {
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": schemaType ?? "WebPage",
    name: title,
    headline: title,
    url: canonical,
    ...(description && { description }),
    ...(typeof publishedAt === "string" && { datePublished: publishedAt }),
  };
  return [
    `<title>${escapeHtml(title)}</title>`,
    description ? `<meta name="description" content="${escapeHtml(description)}">` : "",
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<script type="application/ld+json">${safeJson(jsonLd)}</script>`,
    `<meta name="content_path" content="${escapeHtml(path.replace(/^\/+/, "") || "index")}">`,
    CMS_ASSETS,
  ]
    .filter(Boolean)
    .join("\n");
}
