// Assets downloaded from a URL (assets_upload_from_url): `assetCreateFromUrl` over /graphql
// against a real HTTP receiver on 127.0.0.1, on a server that refuses private addresses (the default) and
// one started with OUTBOUND_ALLOW_PRIVATE=true and a small CMS_UPLOAD_LIMIT. The redirect re-check and the
// time limit are shown on the fetcher itself (src/http/outbound.ts has no GraphQL in it, so it runs
// in-process here): without a public host, a trusted local first hop stands in for one.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FetchPublicOptions, fetchPublic, OutboundError } from "../src/http/outbound.ts";
import { nonPublicReason } from "../src/http/public-address.ts";
import { type ApiResponse, request } from "./helpers/api.ts";
import { cms, createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

// ---- The receiver ---------------------------------------------------------------------------------

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const HTML = Buffer.from("<html><script>alert(document.cookie)</script></html>");
const LIMIT = 2000;
const BIG = Buffer.alloc(LIMIT + 1000, 0x61);

interface Receiver {
  origin: string;
  port: number;
  /** Paths requested, in order. */
  hits: string[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

const routes: Record<string, Handler> = {
  "/": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("hello"),
  "/image.png": (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(PNG),
  // No Content-Type: the filename's extension names the type.
  "/fake.png": (_req, res) => res.end(HTML),
  "/big": (_req, res) => res.writeHead(200, { "content-length": BIG.length }).end(BIG),
  // Chunked: no Content-Length to refuse early, so the count while streaming must stop it.
  "/big-stream": (_req, res) => {
    res.writeHead(200);
    for (let start = 0; start < BIG.length; start += 500) res.write(BIG.subarray(start, start + 500));
    res.end();
  },
  "/missing": (_req, res) => res.writeHead(404).end("not here"),
  "/see-other": (_req, res) => res.writeHead(303, { location: "/image.png" }).end(),
  "/loop": (_req, res) => res.writeHead(302, { location: "/loop" }).end(),
  // Redirects wherever `?to=` says.
  "/to": (_req, res, url) => res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end(),
  // Never answers.
  "/slow": () => {},
  // Answers, then sends one byte now and then, forever.
  "/trickle": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => res.write("."), 50);
    res.on("close", () => clearInterval(timer));
  },
};

async function startReceiver(): Promise<Receiver> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    hits.push(url.pathname);
    const handler = routes[url.pathname];
    if (handler) handler(req, res, url);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let receiver: Receiver;
/** A second receiver: a redirect to another loopback port must not reach it. */
let elsewhere: Receiver;
let closed: TestServer;
let open: TestServer;
let closedAccount: TestAccount;
let openAccount: TestAccount;
let readToken: string;

beforeAll(async () => {
  [receiver, elsewhere, closed, open] = await Promise.all([
    startReceiver(),
    startReceiver(),
    startServer({ OUTBOUND_ALLOW_PRIVATE: "false" }),
    startServer({ OUTBOUND_ALLOW_PRIVATE: "true", CMS_UPLOAD_LIMIT: String(LIMIT) }),
  ]);
  [closedAccount, openAccount] = await Promise.all([createAccount(closed), createAccount(open)]);
  const read = await cms(open, [
    "token",
    "create",
    "--account",
    openAccount.account_id,
    "--scope",
    "read",
    "--json",
  ]);
  readToken = JSON.parse(read.stdout).token;
});

afterAll(async () => {
  await Promise.all([receiver?.close(), elsewhere?.close(), closed?.stop(), open?.stop()]);
});

// ---- GraphQL --------------------------------------------------------------------------------------

const fields = "id filename content_type path url file_size";
const fromUrlMutation = `mutation ($account: ID!, $input: AssetCreateFromUrlInput!) {
  assetCreateFromUrl(account_id: $account, input: $input) { ${fields} }
}`;

function graphql(
  server: TestServer,
  account: TestAccount,
  query: string,
  variables: Record<string, unknown>,
  token = account.token,
): Promise<ApiResponse> {
  return request(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables: { account: account.account_id, ...variables } }),
  });
}

const fromUrl = (server: TestServer, account: TestAccount, input: Record<string, unknown>, token?: string) =>
  graphql(server, account, fromUrlMutation, { input }, token);

/** The 422's details (and nothing else in the answer). */
function details422(response: ApiResponse): { path: string; message: string }[] {
  expect(response.status, response.text).toBe(422);
  expect(response.body.data?.assetCreateFromUrl ?? null, response.text).toBeNull();
  const [error] = response.body.errors;
  expect(error.extensions.code, response.text).toBe("UNPROCESSABLE_ENTITY");
  return error.extensions.details;
}

async function filenames(server: TestServer, account: TestAccount): Promise<string[]> {
  const response = await graphql(
    server,
    account,
    "query ($account: ID!) { assets(account_id: $account) { data { filename } } }",
    {},
  );
  expect(response.status, response.text).toBe(200);
  return response.body.data.assets.data.map((asset: { filename: string }) => asset.filename);
}

/** GET on the account's public site (Node's fetch will not send a Host header). */
function site(server: TestServer, path: string, host: string) {
  const url = new URL(server.url);
  return new Promise<{ status: number; type: string | undefined; body: Buffer }>((resolve, reject) => {
    const req = httpRequest({ hostname: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers["content-type"],
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** An exact message, or one matching a pattern (a host name may resolve to either loopback address). */
function expectMessage(actual: string | undefined, expected: string | RegExp, label: string): void {
  if (typeof expected === "string") expect(actual, label).toBe(expected);
  else expect(actual, label).toMatch(expected);
}

describe("assetCreateFromUrl, private addresses refused (the default)", () => {
  const cases = (): [string, string | RegExp][] => [
    [`http://127.0.0.1:${receiver.port}/x.png`, "refused: 127.0.0.1 is a loopback address"],
    ["http://10.0.0.1/", "refused: 10.0.0.1 is a private address"],
    [`http://[::1]:${receiver.port}/`, "refused: ::1 is a loopback address"],
    [`http://[::ffff:127.0.0.1]:${receiver.port}/`, "refused: ::ffff:7f00:1 is a loopback address"],
    [
      `http://localhost:${receiver.port}/image.png`,
      /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/,
    ],
    // WHATWG URL turns decimal and hex hosts into the dotted address.
    [`http://2130706433:${receiver.port}/image.png`, "refused: 127.0.0.1 is a loopback address"],
    [`http://0x7f.1:${receiver.port}/image.png`, "refused: 127.0.0.1 is a loopback address"],
    ["http://169.254.169.254/latest/meta-data/", "refused: 169.254.169.254 is a link-local address"],
    [`ftp://127.0.0.1:${receiver.port}/x.png`, "only http and https URLs can be fetched, not ftp:"],
    ["file:///etc/passwd", "only http and https URLs can be fetched, not file:"],
    ["not a url", "is not a valid URL"],
  ];

  it("refuses each with a 422 on url saying why, without a request reaching the receiver", async () => {
    const before = receiver.hits.length;
    for (const [url, message] of cases()) {
      const [detail, ...rest] = details422(await fromUrl(closed, closedAccount, { url }));
      expect(rest, url).toEqual([]);
      expect(detail?.path, url).toBe("url");
      expectMessage(detail?.message, message, url);
    }
    expect(receiver.hits.length).toBe(before);
    expect(await filenames(closed, closedAccount)).toEqual([]);
  });
});

describe("assetCreateFromUrl, OUTBOUND_ALLOW_PRIVATE=true", () => {
  it("stores the downloaded PNG as an asset whose bytes its URL then serves", async () => {
    const response = await fromUrl(open, openAccount, { url: `${receiver.origin}/image.png` });
    expect(response.status, response.text).toBe(200);
    const asset = response.body.data.assetCreateFromUrl;
    expect(asset).toMatchObject({
      filename: "image.png",
      content_type: "image/png",
      path: "",
      url: "/assets/image.png",
      file_size: PNG.length,
    });
    expect(asset.id).toMatch(/^acass_/);
    const served = await site(open, asset.url, openAccount.domain);
    expect(served.status).toBe(200);
    expect(served.type).toBe("image/png");
    expect(served.body.equals(PNG)).toBe(true);
  });

  it("follows a redirect and takes the given filename and folder", async () => {
    const response = await fromUrl(open, openAccount, {
      url: `${receiver.origin}/see-other`,
      filename: "followed.png",
      path: "images/in",
    });
    expect(response.status, response.text).toBe(200);
    const asset = response.body.data.assetCreateFromUrl;
    expect(asset).toMatchObject({
      filename: "followed.png",
      path: "images/in",
      url: "/assets/images/in/followed.png",
    });
    expect((await site(open, asset.url, openAccount.domain)).body.equals(PNG)).toBe(true);
  });

  it("names a file 'download' when the URL path has no name, and keeps the response's type", async () => {
    const response = await fromUrl(open, openAccount, { url: `${receiver.origin}/` });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.assetCreateFromUrl).toMatchObject({
      filename: "download",
      content_type: "text/plain",
      file_size: 5,
    });
  });

  it("refuses a name already taken before downloading anything", async () => {
    const before = receiver.hits.length;
    const details = details422(await fromUrl(open, openAccount, { url: `${receiver.origin}/image.png` }));
    expect(details).toEqual([
      { path: "filename", message: "an asset with this path and filename already exists" },
    ]);
    expect(receiver.hits.length).toBe(before);
  });

  it("refuses a body over the upload limit, declared or streamed", async () => {
    for (const route of ["/big", "/big-stream"]) {
      const details = details422(await fromUrl(open, openAccount, { url: `${receiver.origin}${route}` }));
      expect(details, route).toEqual([{ path: "url", message: `too large (over ${LIMIT} bytes)` }]);
    }
    expect(await filenames(open, openAccount)).not.toContain("big");
  });

  it("refuses an error status", async () => {
    const details = details422(await fromUrl(open, openAccount, { url: `${receiver.origin}/missing` }));
    expect(details).toEqual([{ path: "url", message: "HTTP 404 from the server" }]);
  });

  it("refuses HTML bytes named .png exactly as assetCreate does, and stores nothing", async () => {
    const upload = await graphql(
      open,
      openAccount,
      `mutation ($account: ID!, $input: AssetCreateInput!) { assetCreate(account_id: $account, input: $input) { id } }`,
      { input: { filename: "named.png", data: HTML.toString("base64") } },
    );
    const expected = details422(upload);
    expect(expected).toEqual([
      {
        path: "filename",
        message: "the file's content is not a PNG image, as the content type image/png says",
      },
    ]);
    const named = await fromUrl(open, openAccount, {
      url: `${receiver.origin}/fake.png`,
      filename: "named.png",
    });
    expect(details422(named)).toEqual(expected);
    // Named by the URL, the URL is what gave the type.
    const byUrl = details422(await fromUrl(open, openAccount, { url: `${receiver.origin}/fake.png` }));
    expect(byUrl).toEqual([{ path: "url", message: expected[0]?.message }]);
    const stored = await filenames(open, openAccount);
    expect(stored).not.toContain("named.png");
    expect(stored).not.toContain("fake.png");
  });

  it("needs a write token", async () => {
    const response = await fromUrl(open, openAccount, { url: `${receiver.origin}/image.png` }, readToken);
    expect(response.body.errors?.[0]?.extensions?.code, response.text).toBe("FORBIDDEN");
    expect(response.body.data?.assetCreateFromUrl ?? null).toBeNull();
  });
});

// ---- The fetcher, in-process ----------------------------------------------------------------------

const base: FetchPublicOptions = { allowPrivate: false, maxBytes: 100_000, timeoutMs: 5000 };

async function failure(url: string, options: Partial<FetchPublicOptions> = {}): Promise<OutboundError> {
  const error = await fetchPublic(url, { ...base, ...options }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, url).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("fetchPublic", () => {
  it("follows a redirect within a trusted origin (the setup the next test relies on)", async () => {
    const fetched = await fetchPublic(`${receiver.origin}/to?to=/image.png`, {
      ...base,
      trustedOrigins: [receiver.origin],
    });
    expect(fetched.bytes.equals(PNG)).toBe(true);
    expect(fetched.contentType).toBe("image/png");
    expect(fetched.finalUrl).toBe(`${receiver.origin}/image.png`);
  });

  it("checks every redirect again: from an allowed first hop to a refused second hop", async () => {
    const trusted = { trustedOrigins: [receiver.origin] };
    const targets: [string, string | RegExp][] = [
      [
        `http://127.0.0.1:${elsewhere.port}/image.png`,
        "refused: 127.0.0.1 is a loopback address (in a redirect)",
      ],
      ["http://10.0.0.1/", "refused: 10.0.0.1 is a private address (in a redirect)"],
      [`http://[::1]:${receiver.port}/image.png`, "refused: ::1 is a loopback address (in a redirect)"],
      [
        `http://[::ffff:127.0.0.1]:${receiver.port}/image.png`,
        "refused: ::ffff:7f00:1 is a loopback address (in a redirect)",
      ],
      [
        `http://localhost:${receiver.port}/image.png`,
        /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(in a redirect\)$/,
      ],
      [
        `ftp://127.0.0.1:${receiver.port}/`,
        "only http and https URLs can be fetched, not ftp: (in a redirect)",
      ],
    ];
    const before = receiver.hits.filter((path) => path === "/image.png").length;
    for (const [target, message] of targets) {
      const error = await failure(`${receiver.origin}/to?to=${encodeURIComponent(target)}`, trusted);
      expectMessage(error.message, message, target);
    }
    expect(elsewhere.hits).toEqual([]);
    expect(receiver.hits.filter((path) => path === "/image.png").length).toBe(before);
  });

  it("checks the addresses a host name resolves to", async () => {
    const error = await failure(`http://localhost:${receiver.port}/image.png`);
    expect(error.reason).toBe("refused");
    // Trusting an origin trusts that origin only.
    const other = await failure(`http://localhost:${receiver.port}/image.png`, {
      trustedOrigins: [receiver.origin],
    });
    expect(other.reason).toBe("refused");
  });

  it("stops after maxRedirects", async () => {
    const before = receiver.hits.filter((path) => path === "/loop").length;
    const error = await failure(`${receiver.origin}/loop`, { allowPrivate: true, maxRedirects: 2 });
    expect(error.message).toBe("too many redirects");
    expect(receiver.hits.filter((path) => path === "/loop").length - before).toBe(3);
  });

  it("times out a server that never answers, and one that never finishes its body", async () => {
    for (const route of ["/slow", "/trickle", `/to?to=/slow`]) {
      const started = Date.now();
      const error = await failure(`${receiver.origin}${route}`, { allowPrivate: true, timeoutMs: 300 });
      expect(error.reason, route).toBe("timeout");
      expect(error.message).toBe("timed out after 300 ms");
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it("cuts a body at maxBytes, declared or streamed", async () => {
    for (const route of ["/big", "/big-stream"]) {
      const error = await failure(`${receiver.origin}${route}`, { allowPrivate: true, maxBytes: 1000 });
      expect(error.message, route).toBe("too large (over 1000 bytes)");
    }
    const exact = await fetchPublic(`${receiver.origin}/big`, {
      ...base,
      allowPrivate: true,
      maxBytes: BIG.length,
    });
    expect(exact.bytes.equals(BIG)).toBe(true);
  });

  it("says which hosts cannot be reached", async () => {
    const error = await failure(`${receiver.origin}/missing`, { allowPrivate: true });
    expect(error.message).toBe("HTTP 404 from the server");
    const unresolvable = await failure("http://no-such-host.invalid/", { allowPrivate: true });
    expect(unresolvable.message).toBe("could not resolve the host no-such-host.invalid");
  });
});

describe("nonPublicReason", () => {
  it("allows public unicast addresses only", () => {
    expect(nonPublicReason("93.184.216.34")).toBeUndefined();
    expect(nonPublicReason("2606:4700::1111")).toBeUndefined();
    expect(
      Object.fromEntries(
        [
          "127.0.0.2",
          "::1",
          "::ffff:10.1.2.3",
          "::7f00:1",
          "172.16.0.1",
          "192.168.1.1",
          "169.254.169.254",
          "fe80::1",
          "fc00::1",
          "100.64.0.1",
          "0.0.0.0",
          "::",
          "224.0.0.1",
          "ff02::1",
          "255.255.255.255",
          "240.0.0.1",
        ].map((address) => [address, nonPublicReason(address)]),
      ),
    ).toEqual({
      "127.0.0.2": "a loopback address",
      "::1": "a loopback address",
      "::ffff:10.1.2.3": "a private address",
      "::7f00:1": "a reserved address",
      "172.16.0.1": "a private address",
      "192.168.1.1": "a private address",
      "169.254.169.254": "a link-local address",
      "fe80::1": "a link-local address",
      "fc00::1": "a unique local address",
      "100.64.0.1": "a carrier-grade NAT address",
      "0.0.0.0": "an unspecified address",
      "::": "an unspecified address",
      "224.0.0.1": "a multicast address",
      "ff02::1": "a multicast address",
      "255.255.255.255": "a broadcast address",
      "240.0.0.1": "a reserved address",
    });
  });
});
