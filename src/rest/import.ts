// POST /v1/accounts/:account_id/import[?dry_run=true]: a whole site into the account, answering the
// import's report. The body is the YAML document (application/yaml, text/yaml), or a .tar.gz as
// `cms export` writes it, sent as the multipart part `file` (read and staged as any multipart upload,
// upload.ts) or as the body itself (application/gzip). Answered here rather than through the route
// table: sofa takes JSON bodies only. It stays transport only: the rules and the report are importSite's.
import { Readable } from "node:stream";
import type { Request } from "../http/fetch-api.ts";
import { limitedChunks, readLimitedText } from "../http/limited-body.ts";
import { accountScope } from "../schema/access.ts";
import { uploadTooLarge } from "../schema/assets/limits.ts";
import type { Context } from "../schema/context.ts";
import { ApiError } from "../schema/errors.ts";
import { type ImportSource, importSite } from "../schema/import/index.ts";
import { IMPORT_ARCHIVE_LIMIT, IMPORT_DOCUMENT_LIMIT } from "../schema/import/limits.ts";
import { json } from "./errors.ts";
import { isMultipart, readMultipartUpload } from "./upload.ts";

export const IMPORT_PATH = /^\/v1\/accounts\/([^/]+)\/import$/;

const yamlTypes = /^(application|text)\/(x-)?yaml\b/i;
const gzipTypes = /^application\/(x-)?(gzip|tar\+gzip)\b/i;

export async function importAnswer(request: Request, ctx: Context, accountId: string): Promise<Response> {
  // Who may write comes before reading a body that may be large.
  await accountScope(ctx, accountId, "write");
  const url = new URL(request.url);
  const dryRun = dryRunParameter(url.searchParams.get("dry_run"));
  const source = await readSource(request, ctx);
  try {
    return json(await importSite(ctx, accountId, source.source, { dryRun }));
  } finally {
    if (source.staged) await ctx.storage.discard(source.staged);
  }
}

async function readSource(
  request: Request,
  ctx: Context,
): Promise<{ source: ImportSource; staged?: string }> {
  const type = request.headers.get("content-type") ?? "";
  if (isMultipart(request)) {
    const upload = await readMultipartUpload(request, ctx.storage, IMPORT_ARCHIVE_LIMIT);
    return { source: { archive: ctx.storage.readStaged(upload.staged) }, staged: upload.staged };
  }
  if (gzipTypes.test(type)) {
    const chunks = limitedChunks(
      request.body,
      IMPORT_ARCHIVE_LIMIT,
      () => uploadTooLarge("body", IMPORT_ARCHIVE_LIMIT),
      IMPORT_ARCHIVE_LIMIT,
    );
    return { source: { archive: Readable.from(chunks) } };
  }
  if (yamlTypes.test(type))
    return { source: { document: await readLimitedText(request, IMPORT_DOCUMENT_LIMIT) } };
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
