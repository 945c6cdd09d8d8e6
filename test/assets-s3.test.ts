// Assets in an S3-compatible bucket (ASSET_STORAGE=s3://bucket/prefix), against a local
// s3rver on 127.0.0.1 through the real AWS SDK: uploads land in the bucket (a multipart upload for a
// large file), the site serves them from it with ranges, ETags and 304s, a purge removes the object, an
// upload cut off half-way (or whose bucket fails) leaves neither a row nor an object, and
// `cms assets copy-to-s3` moves a local directory's files into a bucket that a server then serves from.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { CreateBucketCommand, DeleteBucketCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { type Api, type ApiResponse, api } from "./helpers/api.ts";
import { accountFolder } from "./helpers/asset-files.ts";
import { cms, createAccount } from "./helpers/cli.ts";
import { startS3, type TestBucket } from "./helpers/s3.ts";
import { startServer, type TestServer } from "./helpers/server.ts";
import { siteGetBytes, siteRequest } from "./helpers/site.ts";

let s3: TestBucket;
let server: TestServer;
let client: Api;

beforeAll(async () => {
  s3 = await startS3();
  server = await startServer({ ...s3.env, ASSET_STORAGE: `s3://${s3.bucket}/site-files/` });
  client = api(server, await createAccount(server));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

function uploadMultipart(target: Api, bytes: Buffer, filename: string, type: string): Promise<ApiResponse> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  return target.raw(`/v1/accounts/${target.account.account_id}/assets`, { method: "POST", body: form });
}

/** Bytes 0..255 repeated: any range of them is easy to predict and to check. */
function pattern(size: number): Buffer {
  return Buffer.from(Array.from({ length: size }, (_, i) => i % 256));
}

const stagingDir = (target: TestServer) => join(target.env.CMS_DATA_DIR ?? "", "assets", ".staging");

describe("uploads go to the bucket", () => {
  let asset: any;
  const bytes = pattern(6 * 1024 * 1024 + 123);

  it("stores a 6 MB multipart upload as one object under the prefix, not on the local disk", async () => {
    const response = await uploadMultipart(client, bytes, "film.bin", "application/octet-stream");
    expect(response.status, response.text).toBe(201);
    asset = response.body;
    expect(asset.file_size).toBe(bytes.length);
    const keys = await s3.keys();
    expect(keys.filter((key) => key.endsWith(`/${client.account.account_id}/${asset.id}`))).toEqual([
      expect.stringMatching(
        new RegExp(`^site-files/inst_[0-9a-z]{26}/${client.account.account_id}/${asset.id}$`),
      ),
    ]);
    expect(existsSync(join(server.env.CMS_DATA_DIR ?? "", "assets", client.account.account_id))).toBe(false);
    expect(readdirSync(stagingDir(server))).toEqual([]);
  });

  it("serves the whole file, one range of it, and 304 for its ETag, from the bucket", async () => {
    const { domain } = client.account;
    const whole = await siteRequest(server, "/assets/film.bin", domain);
    expect(whole.status).toBe(200);
    expect((await siteGetBytes(server, "/assets/film.bin", domain)).body.equals(bytes)).toBe(true);
    expect(whole.headers["content-length"]).toBe(String(bytes.length));
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(whole.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    const etag = String(whole.headers.etag);
    expect(etag).toBe(`"${asset.id}"`);

    const start = 5 * 1024 * 1024 - 10;
    const range = await siteGetBytes(server, "/assets/film.bin", domain, {
      range: `bytes=${start}-${start + 299}`,
    });
    expect(range.status).toBe(206);
    expect(range.headers["content-range"]).toBe(`bytes ${start}-${start + 299}/${bytes.length}`);
    expect(range.body.equals(bytes.subarray(start, start + 300))).toBe(true);

    const tail = await siteGetBytes(server, "/assets/film.bin", domain, { range: "bytes=-5" });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(bytes.subarray(bytes.length - 5))).toBe(true);

    const again = await siteRequest(server, "/assets/film.bin", domain, {
      headers: { "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("serves a small JSON upload byte for byte", async () => {
    const small = await client.post("/assets", {
      asset: {
        filename: "hello.txt",
        content_type: "text/plain",
        data: Buffer.from("hello bucket").toString("base64"),
      },
    });
    expect(small.status, small.text).toBe(201);
    const served = await siteRequest(server, "/assets/hello.txt", client.account.domain);
    expect(served.text).toBe("hello bucket");
    expect(served.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("keeps the object while the asset is in the trash and removes it when the trash is purged", async () => {
    const key = (await s3.keys()).find((found) =>
      found.endsWith(`/${client.account.account_id}/${asset.id}`),
    );
    expect(key).toMatch(/^site-files\/inst_/);
    expect((await client.delete(`/assets/${asset.id}`)).status).toBe(204);
    expect((await siteRequest(server, "/assets/film.bin", client.account.domain)).status).toBe(404);
    expect(await s3.keys()).toContain(key);
    const trashed = (await client.get("/trash")).body.data.find((item: any) => item.record_id === asset.id);
    expect((await client.delete(`/trash/${trashed.id}`)).status).toBe(204);
    expect(await s3.keys()).not.toContain(key);
  });

  it("leaves neither a row nor an object nor a staged file when an upload is cut off half-way", async () => {
    const before = await s3.keys();
    const total = (await client.get("/assets")).body.pagination.total;
    const boundary = "----cut-off";
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="cut.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`;
    const length = head.length + 2_000_000 + `\r\n--${boundary}--\r\n`.length;
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `POST /v1/accounts/${client.account.account_id}/assets HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
            `authorization: Bearer ${client.account.token}\r\n` +
            `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${length}\r\n\r\n${head}`,
        );
        // Half the file, then the connection drops.
        socket.write(pattern(1_000_000), () => setTimeout(() => socket.destroy(), 200));
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    // The server notices the closed connection and cleans up; give it a moment.
    for (let i = 0; i < 50 && readdirSync(stagingDir(server)).length > 0; i++) await sleep(100);
    expect(readdirSync(stagingDir(server))).toEqual([]);
    expect(await s3.keys()).toEqual(before);
    expect((await client.get("/assets")).body.pagination.total).toBe(total);
  });

  it("leaves no object when the bytes are refused (a PNG that is not one)", async () => {
    const before = await s3.keys();
    const response = await uploadMultipart(client, Buffer.from("not a png"), "fake.png", "image/png");
    expect(response.status, response.text).toBe(422);
    expect(await s3.keys()).toEqual(before);
    expect(readdirSync(stagingDir(server))).toEqual([]);
  });
});

describe("a bucket failing during an upload", () => {
  let failing: TestServer;

  afterAll(async () => {
    await failing?.stop();
  });

  it("answers 500 (masked) and leaves neither a row, nor an object, nor a staged file", async () => {
    await s3.client.send(new CreateBucketCommand({ Bucket: "doomed" }));
    failing = await startServer({ ...s3.env, ASSET_STORAGE: "s3://doomed/files" });
    const owner = api(failing, await createAccount(failing));
    // Gone after the start's check: every write to it fails now.
    await s3.client.send(new DeleteBucketCommand({ Bucket: "doomed" }));
    const response = await uploadMultipart(owner, pattern(200_000), "lost.bin", "application/octet-stream");
    expect(response.status, response.text).toBe(500);
    expect(response.text).not.toMatch(/NoSuchBucket|doomed|\n\s+at\s/);
    expect((await owner.get("/assets")).body.pagination.total).toBe(0);
    expect(readdirSync(stagingDir(failing))).toEqual([]);
    await s3.client.send(new CreateBucketCommand({ Bucket: "doomed" }));
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: "doomed" }));
    expect(listed.Contents ?? []).toEqual([]);
  }, 60_000);
});

describe("settings", () => {
  it("refuses an ASSET_STORAGE that is not an s3:// URL in one line", () => {
    expect(() => loadConfig({ ASSET_STORAGE: "ftp://files" })).toThrow(
      'ASSET_STORAGE must be an s3://bucket/prefix URL (got "ftp://files"); leave it unset for files under CMS_DATA_DIR/assets',
    );
    expect(loadConfig({ ASSET_STORAGE: "s3://my-bucket/a/b/" }).assetBucket).toEqual({
      bucket: "my-bucket",
      prefix: "a/b",
    });
  });

  it("names the setting when the bucket does not exist", async () => {
    const result = await cms(server, ["assets", "copy-to-s3"], { ASSET_STORAGE: "s3://no-such-bucket" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n").at(-1)).toBe(
      "cms: ASSET_STORAGE: cannot reach bucket no-such-bucket (no such bucket)",
    );
  });
});

describe("cms assets copy-to-s3", () => {
  let local: TestServer;

  afterAll(async () => {
    await local?.stop();
  });

  it("copies a local directory's files into a bucket a server then serves them from", async () => {
    local = await startServer();
    const owner = api(local, await createAccount(local));
    const names = ["one.txt", "two.txt"];
    for (const name of names) {
      const response = await owner.post("/assets", {
        asset: {
          filename: name,
          content_type: "text/plain",
          data: Buffer.from(`bytes of ${name}`).toString("base64"),
        },
      });
      expect(response.status, response.text).toBe(201);
    }

    const target = `s3://${s3.bucket}/moved`;
    const copied = await cms(local, ["assets", "copy-to-s3", "--to", target, "--json"], s3.env);
    expect(copied.code, copied.stderr).toBe(0);
    expect(JSON.parse(copied.stdout)).toMatchObject({ copied: 2, skipped: 0 });
    const moved = (await s3.keys()).filter((key) => key.startsWith("moved/"));
    expect(moved).toHaveLength(2);

    // A second run finds them there.
    const rerun = await cms(local, ["assets", "copy-to-s3", "--to", target, "--json"], s3.env);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ copied: 0, skipped: 2 });

    // The server switched to the bucket serves them with the local files gone.
    rmSync(accountFolder(local, owner.account.account_id), { recursive: true });
    local = await local.restart({ ...s3.env, ASSET_STORAGE: target });
    for (const name of names) {
      const served = await siteRequest(local, `/assets/${name}`, owner.account.domain);
      expect(served.status).toBe(200);
      expect(served.text).toBe(`bytes of ${name}`);
    }
  }, 60_000);
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
