// Assets over REST (content-api.md "Asset", "Endpoints > Assets"; decisions.md "REST decisions" and
// "Running the service"): multipart and base64 JSON uploads, the upload limit, metadata moves, deletes,
// serving the files on the account's site by Host, and image fields of entries set by asset ID.
// Everything goes through HTTP against the real server.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, type ApiResponse, api } from "./helpers/api.ts";
import { expectCreated, expectError, ISO } from "./helpers/assertions.ts";
import { accountFolder, assetFile } from "./helpers/asset-files.ts";
import { createAccount, type TestAccount } from "./helpers/cli.ts";
import { startServer, type TestServer } from "./helpers/server.ts";

let server: TestServer;
/** A second server whose upload limit is small (CMS_UPLOAD_LIMIT). */
let limited: TestServer;
let client: Api;
let other: Api;
let small: Api;

const SMALL_LIMIT = 1000;

// ---- Files ----------------------------------------------------------------------------------------

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid RGB PNG of `size`×`size` pixels (a colour gradient). */
function png(size = 8): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, deflate, no filter, no interlace
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push((x * 255) / size, (y * 255) / size, 128);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.from(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A minimal valid one-page PDF. */
function pdf(): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

// ---- Requests -------------------------------------------------------------------------------------

interface Upload {
  file?: { bytes: Buffer; filename?: string; type?: string };
  fields?: Record<string, string>;
}

/** A multipart/form-data POST /assets (fetch writes the boundary). */
function uploadMultipart(target: Api, { file, fields = {} }: Upload): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    const blob = new Blob([new Uint8Array(file.bytes)], file.type ? { type: file.type } : {});
    form.append("file", blob, file.filename);
  }
  return target.raw(`/v1/accounts/${target.account.account_id}/assets`, { method: "POST", body: form });
}

interface SiteResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** GET on the public site with a Host header (Node's fetch will not send one). */
function site(
  target: TestServer,
  path: string,
  host: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<SiteResponse> {
  const url = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path, method, headers: { host, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The stored file of an asset (bytes are kept by installation, account and asset ID under CMS_DATA_DIR/assets). */
function storedFile(target: TestServer, account: TestAccount, assetId: string): string {
  return assetFile(target, account.account_id, assetId);
}

function assetShape(fields: {
  filename: string;
  content_type: string;
  path: string;
  url: string;
  size: number;
}) {
  return {
    id: expect.stringMatching(/^acass_[0-9a-z]{26}$/),
    filename: fields.filename,
    content_type: fields.content_type,
    path: fields.path,
    url: fields.url,
    file_size: fields.size,
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
  };
}

async function uploadJson(target: Api, asset: Record<string, unknown>): Promise<any> {
  return expectCreated(target.post("/assets", { asset }));
}

beforeAll(async () => {
  [server, limited] = await Promise.all([
    startServer(),
    startServer({ CMS_UPLOAD_LIMIT: String(SMALL_LIMIT) }),
  ]);
  const [first, second, third] = await Promise.all([
    createAccount(server, "Assets"),
    createAccount(server, "Other"),
    createAccount(limited, "Small"),
  ]);
  client = api(server, first);
  other = api(server, second);
  small = api(limited, third);
});
afterAll(() => Promise.all([server?.stop(), limited?.stop()]));

describe("multipart upload", () => {
  it("stores a PNG in a folder and serves it byte for byte at its url on the account's domain", async () => {
    const bytes = png(16);
    const response = await uploadMultipart(client, {
      file: { bytes, filename: "logo.png", type: "image/png" },
      fields: { path: "images/brand" },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual(
      assetShape({
        filename: "logo.png",
        content_type: "image/png",
        path: "images/brand",
        url: "/assets/images/brand/logo.png",
        size: bytes.length,
      }),
    );
    expect(response.body.created_at).toBe(response.body.updated_at);

    const served = await site(server, "/assets/images/brand/logo.png", client.account.domain);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["content-length"]).toBe(String(bytes.length));
    expect(served.body.equals(bytes)).toBe(true);
    // The port of the Host header is ignored; the file is kept by account and asset ID.
    const withPort = await site(server, "/assets/images/brand/logo.png", `${client.account.domain}:8080`);
    expect(withPort.body.equals(bytes)).toBe(true);
    expect(readFileSync(storedFile(server, client.account, response.body.id)).equals(bytes)).toBe(true);
  });

  it("takes the content type from the extension when the part declares none that says anything", async () => {
    const bytes = pdf();
    // A Blob without a type is sent as application/octet-stream.
    const response = await uploadMultipart(client, { file: { bytes, filename: "brochure.pdf" } });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual(
      assetShape({
        filename: "brochure.pdf",
        content_type: "application/pdf",
        path: "",
        url: "/assets/brochure.pdf",
        size: bytes.length,
      }),
    );
    const served = await site(server, "/assets/brochure.pdf", client.account.domain);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.body.equals(bytes)).toBe(true);
  });

  it("keeps a declared content type over the extension's", async () => {
    const response = await uploadMultipart(client, {
      file: { bytes: Buffer.from("a,b\n1,2\n"), filename: "table.txt", type: "text/csv" },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.content_type).toBe("text/csv");
  });

  it("requires the file part", async () => {
    expectError(await uploadMultipart(client, { fields: { path: "docs" } }), 422, "file");
  });

  it("refuses a file part whose filename is a path", async () => {
    const response = await uploadMultipart(client, {
      file: { bytes: png(), filename: "../evil.png", type: "image/png" },
    });
    expectError(response, 422, "filename");
  });

  it("percent-encodes the url of names with spaces and serves them there", async () => {
    const bytes = Buffer.from("spaced out");
    const response = await uploadMultipart(client, {
      file: { bytes, filename: "read me.txt", type: "text/plain" },
      fields: { path: "my docs" },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ filename: "read me.txt", path: "my docs" });
    expect(response.body.url).toBe("/assets/my%20docs/read%20me.txt");
    const served = await site(server, response.body.url, client.account.domain);
    expect(served.status).toBe(200);
    expect(served.body.toString()).toBe("spaced out");
  });
});

describe("JSON upload", () => {
  it("decodes base64 data, wrapped in `asset`, with the declared content type", async () => {
    const bytes = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    const body = await uploadJson(client, {
      filename: "dot.svg",
      content_type: "image/svg+xml",
      path: "icons",
      data: bytes.toString("base64"),
    });
    expect(body).toEqual(
      assetShape({
        filename: "dot.svg",
        content_type: "image/svg+xml",
        path: "icons",
        url: "/assets/icons/dot.svg",
        size: bytes.length,
      }),
    );
    const served = await site(server, "/assets/icons/dot.svg", client.account.domain);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe("image/svg+xml");
    expect(served.headers["content-security-policy"]).toBe("sandbox");
    expect(served.body.equals(bytes)).toBe(true);
  });

  it("also takes the fields unwrapped, and the content type from the extension when none is sent", async () => {
    const bytes = png(4);
    const response = await client.post("/assets", { filename: "tiny.PNG", data: bytes.toString("base64") });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ content_type: "image/png", path: "", url: "/assets/tiny.PNG" });
    const served = await site(server, "/assets/tiny.PNG", client.account.domain);
    expect(served.body.equals(bytes)).toBe(true);
  });

  it("normalises the folder path: surrounding spaces, repeated and trailing slashes", async () => {
    const body = await uploadJson(client, { filename: "n.txt", path: " notes//2024/ ", data: "bm90ZQ==" });
    expect(body).toMatchObject({ path: "notes/2024", url: "/assets/notes/2024/n.txt", file_size: 4 });
  });

  it("refuses invalid base64 and a missing data with 422 on data", async () => {
    expectError(
      await client.post("/assets", { asset: { filename: "x.bin", data: "not base64!" } }),
      422,
      "data",
    );
    expectError(await client.post("/assets", { asset: { filename: "x.bin", data: "abcde" } }), 422, "data");
    expectError(await client.post("/assets", { asset: { filename: "x.bin" } }), 422, "data");
    expect((await client.get("/assets")).body.data.map((asset: any) => asset.filename)).not.toContain(
      "x.bin",
    );
  });

  it("refuses an invalid content type with 422 on content_type", async () => {
    const response = await client.post("/assets", {
      asset: { filename: "x.bin", content_type: "not a type", data: "AAAA" },
    });
    expectError(response, 422, "content_type");
    // A header carries only Latin-1: a type with other characters could never be served.
    const unicode = await client.post("/assets", {
      asset: { filename: "y.txt", content_type: 'text/plain; name="✓"', data: "AAAA" },
    });
    expectError(unicode, 422, "content_type");
  });

  it("accepts a JSON upload larger than the 2 MB JSON body limit, up to the upload limit", async () => {
    const bytes = Buffer.alloc(2_500_000, 7);
    const body = await uploadJson(client, { filename: "large.bin", data: bytes.toString("base64") });
    expect(body).toMatchObject({ content_type: "application/octet-stream", file_size: bytes.length });
    const served = await site(server, body.url, client.account.domain);
    expect(served.body.equals(bytes)).toBe(true);
    // Other routes keep the 2 MB limit.
    const big = await client.post("/collections", {
      name: "x".repeat(3_000_000),
      handle: "big",
      routing: ":handle",
    });
    expectError(big, 413);
  });
});

describe("names", () => {
  const unsafeFilenames = ["../x.png", "a/b.png", "a\\b.png", "x\u0000.png", "..", ".", "", "   "];
  const unsafePaths = ["../up", "a/../b", "/absolute", "a\\b", "C:/windows", "a\u0000b", "./here"];

  it.each(unsafeFilenames)("refuses the filename %j with 422 on filename", async (filename) => {
    expectError(await client.post("/assets", { asset: { filename, data: "AAAA" } }), 422, "filename");
  });

  it.each(unsafePaths)("refuses the path %j with 422 on path", async (path) => {
    expectError(
      await client.post("/assets", { asset: { filename: "ok.txt", path, data: "AAAA" } }),
      422,
      "path",
    );
  });

  it("refuses an unsafe multipart path part", async () => {
    const response = await uploadMultipart(client, {
      file: { bytes: png(), filename: "fine.png", type: "image/png" },
      fields: { path: "../../etc" },
    });
    expectError(response, 422, "path");
  });

  it("refuses a second asset at the same path and filename with 422 on filename", async () => {
    await uploadJson(client, { filename: "same.txt", path: "dup", data: "b25l" });
    expectError(
      await client.post("/assets", { asset: { filename: "same.txt", path: "dup", data: "dHdv" } }),
      422,
      "filename",
    );
    const multipart = await uploadMultipart(client, {
      file: { bytes: Buffer.from("three"), filename: "same.txt", type: "text/plain" },
      fields: { path: "dup" },
    });
    expectError(multipart, 422, "filename");
    // The first one is untouched.
    const served = await site(server, "/assets/dup/same.txt", client.account.domain);
    expect(served.body.toString()).toBe("one");
    // The same filename in another folder is another asset.
    await uploadJson(client, { filename: "same.txt", path: "dup/other", data: "dHdv" });
  });
});

describe("concurrent uploads", () => {
  it("of one name end as one asset with one stored file; the others get 422 on filename", async () => {
    const racer = api(server, await createAccount(server, "Racer"));
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? racer.post("/assets", {
              asset: { filename: "race.txt", data: Buffer.from(`json ${i}`).toString("base64") },
            })
          : uploadMultipart(racer, { file: { bytes: Buffer.from(`multipart ${i}`), filename: "race.txt" } }),
      ),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created).toHaveLength(1);
    for (const response of responses) if (response.status !== 201) expectError(response, 422, "filename");
    const dir = accountFolder(server, racer.account.account_id);
    expect(readdirSync(dir)).toEqual([created[0]?.body.id]);
  });
});

describe("upload limit", () => {
  it("answers 413 with the error body to a multipart file over CMS_UPLOAD_LIMIT, and stores nothing", async () => {
    const response = await uploadMultipart(small, {
      file: {
        bytes: Buffer.alloc(SMALL_LIMIT + 1, 1),
        filename: "big.bin",
        type: "application/octet-stream",
      },
    });
    expectError(response, 413);
    expect(response.body.details).toEqual([{ path: "file", message: expect.any(String) }]);
    expect((await small.get("/assets")).body.pagination.total).toBe(0);
  });

  it("accepts a file of exactly the limit", async () => {
    const bytes = Buffer.alloc(SMALL_LIMIT, 2);
    const response = await uploadMultipart(small, { file: { bytes, filename: "exact.bin" } });
    expect(response.status, response.text).toBe(201);
    expect(response.body.file_size).toBe(SMALL_LIMIT);
  });

  it("counts the base64 text of a JSON upload", async () => {
    // 900 bytes are 1200 base64 characters: over a 1000-byte limit.
    const over = await small.post("/assets", {
      asset: { filename: "b64.bin", data: Buffer.alloc(900, 3).toString("base64") },
    });
    expectError(over, 413, "data");
    const under = await small.post("/assets", {
      asset: { filename: "b64.bin", data: Buffer.alloc(600, 3).toString("base64") },
    });
    expect(under.status, under.text).toBe(201);
  });
});

describe("read, list, move and delete", () => {
  let moving: any;
  const bytes = png(6);

  beforeAll(async () => {
    moving = await uploadJson(client, { filename: "cat.png", path: "pets", data: bytes.toString("base64") });
  });

  it("reads one asset by ID, and 404 for an unknown ID", async () => {
    const response = await client.get(`/assets/${moving.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(moving);
    expectError(await client.get("/assets/acass_00000000000000000000000000"), 404);
    expectError(await client.get("/assets/cat.png"), 404);
  });

  it("lists in the envelope, newest first, 20 a page", async () => {
    const lister = api(server, await createAccount(server, "Lister"));
    const created: string[] = [];
    for (let i = 0; i < 22; i++) {
      const body = await uploadJson(lister, {
        filename: `f${i}.txt`,
        data: Buffer.from(`${i}`).toString("base64"),
      });
      created.push(body.id);
    }
    const first = await lister.get("/assets");
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 22,
      total_pages: 2,
      next_page: 2,
      prev_page: null,
    });
    expect(first.body.data.map((asset: any) => asset.id)).toEqual(created.slice(2).reverse());
    const second = await lister.get("/assets?page=2");
    expect(second.body.data.map((asset: any) => asset.id)).toEqual(created.slice(0, 2).reverse());
    expect(second.body.pagination).toMatchObject({ page: 2, next_page: null, prev_page: 1 });
  });

  it("moves an asset with PUT path: the file is served at the new url only, its bytes untouched", async () => {
    const file = storedFile(server, client.account, moving.id);
    const response = await client.put(`/assets/${moving.id}`, { path: "animals/cats" });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      ...moving,
      path: "animals/cats",
      url: "/assets/animals/cats/cat.png",
      updated_at: expect.stringMatching(ISO),
    });
    const moved = await site(server, "/assets/animals/cats/cat.png", client.account.domain);
    expect(moved.status).toBe(200);
    expect(moved.headers["content-type"]).toBe("image/png");
    expect(moved.body.equals(bytes)).toBe(true);
    expect((await site(server, "/assets/pets/cat.png", client.account.domain)).status).toBe(404);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it("renames with PATCH inside {asset: {...}} and moves to the root with an empty path", async () => {
    const renamed = await client.patch(`/assets/${moving.id}`, {
      asset: { filename: "kitten.png", path: "" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      filename: "kitten.png",
      path: "",
      url: "/assets/kitten.png",
      content_type: "image/png",
    });
    expect((await site(server, "/assets/kitten.png", client.account.domain)).body.equals(bytes)).toBe(true);
    expect((await client.get(`/assets/${moving.id}`)).body.url).toBe("/assets/kitten.png");
  });

  it("refuses a move onto a taken name or to an unsafe path, and changes nothing", async () => {
    await uploadJson(client, { filename: "taken.png", data: png(2).toString("base64") });
    expectError(await client.put(`/assets/${moving.id}`, { filename: "taken.png" }), 422, "filename");
    expectError(await client.put(`/assets/${moving.id}`, { path: "../x" }), 422, "path");
    expectError(await client.put(`/assets/${moving.id}`, { filename: "a/b.png" }), 422, "filename");
    expect((await client.get(`/assets/${moving.id}`)).body.url).toBe("/assets/kitten.png");
  });

  it("deletes with 204: the row and the url are gone; the stored file goes when the trash is purged", async () => {
    const doomed = await uploadJson(client, { filename: "doomed.txt", data: "Ynll" });
    const file = storedFile(server, client.account, doomed.id);
    expect(existsSync(file)).toBe(true);
    const response = await client.delete(`/assets/${doomed.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectError(await client.get(`/assets/${doomed.id}`), 404);
    expect((await site(server, "/assets/doomed.txt", client.account.domain)).status).toBe(404);
    expect(existsSync(file)).toBe(true);
    const trashed = (await client.get("/trash")).body.data.find((item: any) => item.record_id === doomed.id);
    expect((await client.delete(`/trash/${trashed.id}`)).status).toBe(204);
    expect(existsSync(file)).toBe(false);
    expectError(await client.delete(`/assets/${doomed.id}`), 404);
    // The name is free again.
    await uploadJson(client, { filename: "doomed.txt", data: "YWdhaW4=" });
  });
});

describe("serving", () => {
  it("answers 404 to unknown hosts and paths, and to another account's domain", async () => {
    const bytes = Buffer.from("hello");
    await uploadJson(client, { filename: "hello.txt", path: "greetings", data: bytes.toString("base64") });
    expect((await site(server, "/assets/greetings/hello.txt", client.account.domain)).status).toBe(200);
    expect((await site(server, "/assets/greetings/hello.txt", "unknown.test")).status).toBe(404);
    expect((await site(server, "/assets/greetings/hello.txt", other.account.domain)).status).toBe(404);
    expect((await site(server, "/assets/greetings/nope.txt", client.account.domain)).status).toBe(404);
    expect((await site(server, "/assets/hello.txt", client.account.domain)).status).toBe(404);
    expect((await site(server, "/assets/greetings/%E0%A4%A.txt", client.account.domain)).status).toBe(404);
  });

  it("serves HEAD and one byte range", async () => {
    const bytes = Buffer.from("0123456789");
    const asset = await uploadJson(client, { filename: "digits.txt", data: bytes.toString("base64") });
    const head = await site(server, asset.url, client.account.domain, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe("10");
    expect(head.body.length).toBe(0);
    const range = await site(server, asset.url, client.account.domain, { range: "bytes=2-5" });
    expect(range.status).toBe(206);
    expect(range.headers["content-range"]).toBe("bytes 2-5/10");
    expect(range.body.toString()).toBe("2345");
  });

  it("sends ETag and Cache-Control, and answers 304 with no body to a matching If-None-Match", async () => {
    const bytes = Buffer.from("cache me");
    const asset = await uploadJson(client, { filename: "cached.txt", data: bytes.toString("base64") });
    const first = await site(server, asset.url, client.account.domain);
    expect(first.status).toBe(200);
    expect(first.body.toString()).toBe("cache me");
    const etag = first.headers.etag;
    expect(etag).toBe(`"${asset.id}"`);
    expect(first.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    for (const ifNoneMatch of [`${etag}`, `W/${etag}`, `"a", ${etag}`, `W/"a",W/${etag}`]) {
      const revalidated = await site(server, asset.url, client.account.domain, {
        "if-none-match": ifNoneMatch,
      });
      expect(revalidated.status, ifNoneMatch).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(revalidated.headers.etag).toBe(etag);
      expect(revalidated.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    }
    const changed = await site(server, asset.url, client.account.domain, { "if-none-match": '"other"' });
    expect(changed.status).toBe(200);
    expect(changed.body.toString()).toBe("cache me");
  });
});

describe("entry image fields", () => {
  let asset: any;

  beforeAll(async () => {
    const collection = await client.post("/collections", {
      name: "Posts",
      handle: "posts",
      routing: "posts/:handle",
      blueprint: {
        fields: [
          { handle: "cover", type: "image" },
          { handle: "related", type: "entity" },
        ],
      },
    });
    expect(collection.status, collection.text).toBe(201);
    asset = await uploadJson(client, {
      filename: "cover.png",
      path: "covers",
      data: png(5).toString("base64"),
    });
  });

  it("resolves an asset ID to the asset's url, and follows the asset when it moves", async () => {
    const created = await client.post("/collections/posts/entries", {
      handle: "one",
      title: "One",
      cover: asset.id,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.cover).toBe("/assets/covers/cover.png");
    const parent = await client.post("/collections/posts/entries", {
      handle: "two",
      title: "Two",
      related: "one",
    });
    expect(parent.body.related.cover).toBe("/assets/covers/cover.png");

    expect((await client.put(`/assets/${asset.id}`, { path: "covers/2024" })).status).toBe(200);
    expect((await client.get("/collections/posts/entries/one")).body.cover).toBe(
      "/assets/covers/2024/cover.png",
    );
    expect((await client.get("/collections/posts/entries/two")).body.related.cover).toBe(
      "/assets/covers/2024/cover.png",
    );
    const list = await client.get("/collections/posts/entries");
    expect(list.body.data.find((entry: any) => entry.handle === "one").cover).toBe(
      "/assets/covers/2024/cover.png",
    );
  });

  it("still takes a filename, path/filename and /assets/... path", async () => {
    const byPath = await client.post("/collections/posts/entries", {
      handle: "three",
      title: "Three",
      cover: "/assets/covers/other.png",
    });
    expect(byPath.status, byPath.text).toBe(201);
    expect(byPath.body.cover).toBe("/assets/covers/other.png");
    const byName = await client.put("/collections/posts/entries/three", { cover: "plain.png" });
    expect(byName.body.cover).toBe("/assets/plain.png");
  });

  it("refuses an unknown asset ID, or another account's, with 422 on the field", async () => {
    const foreign = await uploadJson(other, { filename: "theirs.png", data: png(2).toString("base64") });
    for (const cover of ["acass_00000000000000000000000000", foreign.id]) {
      const response = await client.post("/collections/posts/entries", {
        handle: "bad",
        title: "Bad",
        cover,
      });
      expectError(response, 422, "cover");
    }
  });

  it("reads as null once the asset is deleted", async () => {
    const gone = await uploadJson(client, { filename: "gone.png", data: png(2).toString("base64") });
    await client.post("/collections/posts/entries", { handle: "four", title: "Four", cover: gone.id });
    expect((await client.delete(`/assets/${gone.id}`)).status).toBe(204);
    expect((await client.get("/collections/posts/entries/four")).body.cover).toBeNull();
  });
});

describe("account isolation", () => {
  let mine: any;

  beforeAll(async () => {
    mine = await uploadJson(client, {
      filename: "private.txt",
      data: Buffer.from("secret").toString("base64"),
    });
  });

  it("gives 403 to another account's token on this account's asset routes", async () => {
    const base = `/v1/accounts/${client.account.account_id}/assets`;
    const foreign = { authorization: `Bearer ${other.account.token}`, "content-type": "application/json" };
    const attempts = [
      other.raw(base, { headers: foreign }),
      other.raw(`${base}/${mine.id}`, { headers: foreign }),
      other.raw(base, {
        method: "POST",
        headers: foreign,
        body: JSON.stringify({ asset: { filename: "x.txt", data: "AAAA" } }),
      }),
      other.raw(`${base}/${mine.id}`, {
        method: "PUT",
        headers: foreign,
        body: JSON.stringify({ path: "stolen" }),
      }),
      other.raw(`${base}/${mine.id}`, { method: "DELETE", headers: foreign }),
    ];
    for (const response of await Promise.all(attempts)) expectError(response, 403);
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("x")], { type: "text/plain" }), "x.txt");
    expectError(
      await other.raw(base, {
        method: "POST",
        headers: { authorization: foreign.authorization },
        body: form,
      }),
      403,
    );
    const still = await client.get(`/assets/${mine.id}`);
    expect(still.body).toEqual(mine);
  });

  it("gives 404 to this account's asset ID on another account's path", async () => {
    expectError(await other.get(`/assets/${mine.id}`), 404);
    expectError(await other.put(`/assets/${mine.id}`, { path: "stolen" }), 404);
    expectError(await other.delete(`/assets/${mine.id}`), 404);
    expect((await other.get("/assets")).body.data.map((asset: any) => asset.id)).not.toContain(mine.id);
    expect((await client.get(`/assets/${mine.id}`)).body).toEqual(mine);
    expect((await site(server, "/assets/private.txt", client.account.domain)).body.toString()).toBe("secret");
  });
});

describe("content checks", () => {
  const pad = (head: number[] | string) =>
    Buffer.concat([
      typeof head === "string" ? Buffer.from(head, "latin1") : Buffer.from(head),
      Buffer.alloc(32, 7),
    ]);
  /** The leading bytes of each checked format (enough for the check; the rest is filler). */
  const samples: [type: string, extension: string, bytes: Buffer][] = [
    ["image/png", "png", png(2)],
    ["image/jpeg", "jpg", pad([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46])],
    ["image/gif", "gif", pad("GIF89a\x01\x00\x01\x00")],
    ["image/webp", "webp", pad("RIFF\x24\x00\x00\x00WEBPVP8 ")],
    ["image/avif", "avif", pad("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf")],
    ["application/pdf", "pdf", pdf()],
  ];
  const html = Buffer.from("<html><script>alert(document.cookie)</script></html>");

  it.each(samples)("accepts a real %s", async (type, extension, bytes) => {
    const body = await uploadJson(client, {
      filename: `real.${extension}`,
      path: "checked",
      content_type: type,
      data: bytes.toString("base64"),
    });
    expect(body).toMatchObject({ content_type: type, file_size: bytes.length });
  });

  it.each(samples)(
    "refuses other bytes declared as %s with 422 on content_type, and stores nothing",
    async (type, extension) => {
      const filename = `fake.${extension}`;
      const details = expectError(
        await client.post("/assets", {
          asset: { filename, content_type: type, data: html.toString("base64") },
        }),
        422,
        "content_type",
      );
      expect(details[0]?.message).toContain(type);
      const list = await client.get("/assets");
      expect(list.body.data.map((asset: any) => asset.filename)).not.toContain(filename);
    },
  );

  it("refuses bytes of one image format declared as another", async () => {
    const gif = samples[2]?.[2] ?? Buffer.alloc(0);
    const response = await client.post("/assets", {
      asset: { filename: "swap.png", content_type: "image/png", data: gif.toString("base64") },
    });
    expectError(response, 422, "content_type");
  });

  it("names the filename when its extension gave the type, and the data: URL when that did", async () => {
    expectError(
      await client.post("/assets", { asset: { filename: "by-name.jpg", data: html.toString("base64") } }),
      422,
      "filename",
    );
    const dataUrl = `data:image/png;base64,${html.toString("base64")}`;
    expectError(
      await client.post("/assets", { asset: { filename: "by-url.bin", data: dataUrl } }),
      422,
      "data",
    );
    expectError(
      await client.post("/assets", { asset: { filename: "empty.pdf", data: "" } }),
      422,
      "filename",
    );
  });

  it("checks multipart uploads by the part's type", async () => {
    const refused = await uploadMultipart(client, {
      file: { bytes: html, filename: "part.png", type: "image/png" },
    });
    expectError(refused, 422, "content_type");
    const accepted = await uploadMultipart(client, {
      file: { bytes: pdf(), filename: "part.pdf", type: "application/pdf" },
    });
    expect(accepted.status, accepted.text).toBe(201);
  });

  it("leaves unchecked types alone: text, office documents, unknown bytes", async () => {
    await uploadJson(client, { filename: "notes.txt", path: "unchecked", data: html.toString("base64") });
    await uploadJson(client, { filename: "letter.docx", path: "unchecked", data: html.toString("base64") });
    await uploadJson(client, { filename: "blob", path: "unchecked", data: html.toString("base64") });
  });

  it.each([
    ["page.html", "text/html"],
    ["icon.svg", "image/svg+xml"],
    ["page.xhtml", "application/xhtml+xml"],
    ["feed.atom", "application/atom+xml"],
    ["doc.xml", "application/vnd.evil+xml"],
    ["math.mml", "application/mathml+xml"],
    ["style.xsl", "text/xsl"],
    ["app.js", "text/javascript"],
    ["unknown.bin", "application/x-unheard-of"],
  ])("serves %s (%s) with Content-Security-Policy: sandbox and nosniff", async (filename, type) => {
    const uploaded = await uploadMultipart(client, {
      file: { bytes: html, filename, type },
      fields: { path: "active" },
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    const served = await site(server, uploaded.body.url, client.account.domain);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe(type);
    expect(served.headers["content-security-policy"]).toBe("sandbox");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
  });

  it.each([
    ["photo.png", "image/png", png(2)],
    ["notes.txt", "text/plain", Buffer.from("plain words")],
  ])("serves passive %s (%s) without a sandbox", async (filename, type, bytes) => {
    const uploaded = await uploadMultipart(client, {
      file: { bytes, filename, type },
      fields: { path: "passive" },
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    const served = await site(server, uploaded.body.url, client.account.domain);
    expect(served.status).toBe(200);
    expect(served.headers["content-security-policy"]).toBeUndefined();
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.body.equals(bytes)).toBe(true);
  });

  it("serves nothing outside the account's files for encoded traversal paths", async () => {
    for (const path of [
      "/assets/..%2F..%2F..%2Fetc%2Fpasswd",
      "/assets/%2e%2e/%2e%2e/etc/passwd",
      "/assets/..%5C..%5Cetc%5Cpasswd",
      "/assets/active/page.html%00.png",
      "/assets//etc/passwd",
    ]) {
      const served = await site(server, path, client.account.domain);
      expect(served.status, path).toBe(404);
      expect(served.body.toString()).not.toContain("root:");
    }
  });
});

describe("staging", () => {
  it("keeps no staged file of any upload, accepted or refused", () => {
    for (const target of [server, limited]) {
      expect(readdirSync(join(target.env.CMS_DATA_DIR ?? "", "assets", ".staging"))).toEqual([]);
    }
  });
});
