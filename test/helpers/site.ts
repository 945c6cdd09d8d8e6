// Requests to an account's public site: Node's fetch cannot set Host, so these go through node:http.
import { request as httpRequest } from "node:http";
import type { TestServer } from "./server.ts";

export interface SiteResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function siteGet(
  server: TestServer,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<SiteResponse> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path, method: "GET", headers: { host, ...headers } },
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
    req.on("error", reject);
    req.end();
  });
}
