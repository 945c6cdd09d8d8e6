// POST /v1/accounts/:account_id/import[?dry_run=true]: a whole site into the account, answering the
// import's report. The body is the YAML document (application/yaml, text/yaml), or a .tar.gz as
// `cms export` writes it, sent as the multipart part `file` (read and staged as any multipart upload,
// upload.ts) or as the body itself (application/gzip). Answered here rather than through the route
// table: sofa takes JSON bodies only. It stays transport only: the rules and the report are importSite's.
// A body larger than IMPORT_ASYNC_BYTES, or any with `Prefer: respond-async`, is answered 202 with a job
// (src/schema/import/jobs.ts), read at GET /v1/accounts/:account_id/import/jobs/:id: the body is read
// (a .tar.gz staged) before the answer, and the import goes on after it.
import { Readable } from "node:stream";
import type { Request } from "../http/fetch-api.ts";
import { limitedChunks, readLimitedText } from "../http/limited-body.ts";
import { accountScope } from "../schema/access.ts";
import { uploadTooLarge } from "../schema/assets/limits.ts";
import type { Context } from "../schema/context.ts";
import { ApiError } from "../schema/errors.ts";
import { type ImportSource, importSite } from "../schema/import/index.ts";
import { readImportJob, startImportJob } from "../schema/import/jobs.ts";
import { IMPORT_ARCHIVE_LIMIT, IMPORT_ASYNC_BYTES, IMPORT_DOCUMENT_LIMIT } from "../schema/import/limits.ts";
import { json } from "./errors.ts";
import { isMultipart, readMultipartUpload } from "./upload.ts";

export const IMPORT_PATH = /^\/v1\/accounts\/([^/]+)\/import$/;
export const IMPORT_JOB_PATH = /^\/v1\/accounts\/([^/]+)\/import\/jobs\/([^/]+)$/;

const yamlTypes = /^(application|text)\/(x-)?yaml\b/i;
const gzipTypes = /^application\/(x-)?(gzip|tar\+gzip)\b/i;

export async function importAnswer(request: Request, ctx: Context, accountId: string): Promise<Response> {
  // Who may write comes before reading a body that may be large.
  await accountScope(ctx, accountId, "write");
  const url = new URL(request.url);
  const dryRun = dryRunParameter(url.searchParams.get("dry_run"));
  const asked = /\brespond-async\b/i.test(request.headers.get("prefer") ?? "");
  const declared = Number(request.headers.get("content-length") ?? 0);
  const source = await readSource(request, ctx, asked || declared > IMPORT_ASYNC_BYTES);
  const discard = async () => {
    if (source.staged) await ctx.storage.discard(source.staged);
  };
  if (asked || source.size > IMPORT_ASYNC_BYTES) {
    let job: Awaited<ReturnType<typeof startImportJob>>;
    try {
      job = await startImportJob(ctx, accountId, source.source, { dryRun }, discard);
    } catch (error) {
      await discard();
      throw error;
    }
    const headers: Record<string, string> = {
      location: `/v1/accounts/${accountId}/import/jobs/${job.id}`,
      ...(asked && { "preference-applied": "respond-async" }),
    };
    return withHeaders(json(job, 202), headers);
  }
  try {
    return json(await importSite(ctx, accountId, source.source, { dryRun }));
  } finally {
    await discard();
  }
}

/** GET /v1/accounts/:account_id/import/jobs/:id: an import answered 202, as it runs or once it ended. */
export async function importJobAnswer(ctx: Context, accountId: string, id: string): Promise<Response> {
  return json(await readImportJob(ctx, accountId, id));
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The body as the import reads it, and its size as sent. A .tar.gz body is read as it arrives, unless the
 * import may go on after the answer (`keep`): then it is staged first, as a multipart upload is.
 */
async function readSource(
  request: Request,
  ctx: Context,
  keep: boolean,
): Promise<{ source: ImportSource; size: number; staged?: string }> {
  const type = request.headers.get("content-type") ?? "";
  if (isMultipart(request)) {
    const upload = await readMultipartUpload(request, ctx.storage, IMPORT_ARCHIVE_LIMIT);
    return {
      source: { archive: ctx.storage.readStaged(upload.staged) },
      size: Number(request.headers.get("content-length") ?? 0),
      staged: upload.staged,
    };
  }
  if (gzipTypes.test(type)) {
    const chunks = limitedChunks(
      request.body,
      IMPORT_ARCHIVE_LIMIT,
      () => uploadTooLarge("body", IMPORT_ARCHIVE_LIMIT),
      IMPORT_ARCHIVE_LIMIT,
    );
    if (!keep)
      return {
        source: { archive: Readable.from(chunks) },
        size: Number(request.headers.get("content-length") ?? 0),
      };
    const staged = await ctx.storage.stage(chunks);
    return { source: { archive: ctx.storage.readStaged(staged.id) }, size: staged.size, staged: staged.id };
  }
  if (yamlTypes.test(type)) {
    const document = await readLimitedText(request, IMPORT_DOCUMENT_LIMIT, "YAML");
    return { source: { document }, size: Buffer.byteLength(document) };
  }
  throw new ApiError(415, "Unsupported Media Type", [
    {
      path: "content-type",
      message:
        "must be application/yaml or text/yaml (the document), multipart/form-data with a `file` part or application/gzip (a .tar.gz)",
    },
  ]);
}

function dryRunParameter(value: string | null): boolean {
  if (value === null || value === "false" || value === "0") return false;
  if (value === "" || value === "true" || value === "1") return true;
  throw ApiError.invalid("dry_run", "must be true or false");
}
