// Requests to an account's public site: Node's fetch cannot set Host, so these go through node:http.
import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { Api } from "./api.ts";
import type { TestServer } from "./server.ts";

export interface SiteResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface SiteRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Fails the request when no answer came in this time. */
  timeoutMs?: number;
}

export function siteRequest(
  server: TestServer,
  path: string,
  host: string,
  { method = "GET", headers = {}, body, timeoutMs }: SiteRequest = {},
): Promise<SiteResponse> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path, method, headers: { host, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    if (timeoutMs)
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

export function siteGet(
  server: TestServer,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<SiteResponse> {
  return siteRequest(server, path, host, { headers });
}

/** Saves each `<handle>.liquid` of a fixture theme folder as a template (kind from `kinds`, else template). */
export async function saveThemeFolder(
  client: Api,
  folder: URL,
  kinds: Record<string, string>,
): Promise<void> {
  for (const file of readdirSync(folder)) {
    const handle = file.replace(/\.liquid$/, "");
    const html = readFileSync(new URL(file, folder), "utf8");
    const response = await client.post("/templates", {
      template: { handle, title: handle, kind: kinds[handle] ?? "template", html },
    });
    if (response.status !== 201) throw new Error(`template ${handle}: ${JSON.stringify(response.body)}`);
  }
}

/** A GET whose body is kept as bytes (asset files; siteRequest decodes text). */
export function siteGetBytes(
  server: TestServer,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}
