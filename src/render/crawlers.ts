// What a site serves besides pages: /robots.txt pointing at /sitemap.xml, the sitemap, RSS 2.0 feeds,
// and the CMS's own stylesheet and script.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Response } from "../http/fetch-api.ts";
import { projectRoot } from "../project-root.ts";
import type { Feed } from "./site-data.ts";

const xmlEscape = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c,
  );

export function robots(origin: string): Response {
  return new Response(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`, {
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

export function sitemap(origin: string, urls: { path: string; updated_at: string }[]): Response {
  const body = urls
    .map(
      (url) => `  <url><loc>${xmlEscape(origin + url.path)}</loc><lastmod>${url.updated_at}</lastmod></url>`,
    )
    .join("\n");
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`,
    { headers: { "content-type": "application/xml; charset=utf-8" } },
  );
}

export function rss(origin: string, feed: Feed): Response {
  const items = feed.items
    .map(
      (item) =>
        `    <item><title>${xmlEscape(item.title)}</title><link>${xmlEscape(origin + item.path)}</link>` +
        `<guid isPermaLink="false">${item.id}</guid><pubDate>${new Date(item.published_at).toUTCString()}</pubDate></item>`,
    )
    .join("\n");
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n  <channel>\n` +
    `    <title>${xmlEscape(feed.title)}</title>\n    <link>${xmlEscape(origin)}/</link>\n` +
    `    <description>${xmlEscape(feed.description)}</description>\n${items}\n  </channel>\n</rss>\n`;
  return new Response(body, { headers: { "content-type": "application/rss+xml; charset=utf-8" } });
}

const staticDir = join(projectRoot, "src/render/static");

const staticFiles: Record<string, { type: string; body: string }> = {
  "/cms/cms.css": {
    type: "text/css; charset=utf-8",
    body: readFileSync(join(staticDir, "cms.css"), "utf8"),
  },
  "/cms/cms.js": {
    type: "text/javascript; charset=utf-8",
    body: readFileSync(join(staticDir, "cms.js"), "utf8"),
  },
};

export function cmsStatic(pathname: string): Response | undefined {
  const file = staticFiles[pathname];
  return file
    ? new Response(file.body, {
        headers: { "content-type": file.type, "cache-control": "public, max-age=3600" },
      })
    : undefined;
}
