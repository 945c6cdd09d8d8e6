// A visitor's form post, urlencoded or multipart, read as a stream within limits: the whole body at most
// 2 MB (a declared larger one is refused before it is read, a chunked one as soon as it passes the
// limit), each text value at most 64 KB, at most 200 values. Files are read and dropped (forms store
// text), never buffered. Past a limit: 413; a body that is neither: 400.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Busboy, type BusboyInstance } from "@fastify/busboy";
import { discardRest, limitedChunks } from "../http/limited-body.ts";
import { ApiError } from "../schema/errors.ts";

export const FORM_BODY_LIMIT = 2 * 1024 * 1024;
const FIELD_LIMIT = 64 * 1024;
const FIELD_COUNT = 200;

const tooLarge = (path: string, message: string) =>
  new ApiError(413, "Request body too large", [{ path, message }]);
const malformed = () =>
  new ApiError(400, "Malformed form body", [{ path: "body", message: "must be urlencoded or multipart" }]);

/** The posted text values in order, names as sent (`fields[name]`, `redirect_url`, …). */
export async function readFormBody(request: Request): Promise<[string, string][]> {
  if (Number(request.headers.get("content-length") ?? 0) > FORM_BODY_LIMIT) {
    if (request.body) void discardRest(request.body.getReader(), 4 * FORM_BODY_LIMIT);
    throw tooLarge("body", "must be at most 2 MB");
  }
  let parser: BusboyInstance;
  try {
    parser = new Busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: {
        fieldSize: FIELD_LIMIT,
        fields: FIELD_COUNT,
        parts: FIELD_COUNT + 20,
        files: 20,
        fileSize: FORM_BODY_LIMIT,
      },
    });
  } catch {
    throw malformed();
  }
  const values: [string, string][] = [];
  let failure: ApiError | undefined;
  const source = Readable.from(
    limitedChunks(
      request.body,
      FORM_BODY_LIMIT,
      () => tooLarge("body", "must be at most 2 MB"),
      4 * FORM_BODY_LIMIT,
    ),
  );
  const fail = (error: ApiError) => {
    failure ??= error;
    source.destroy(failure);
  };
  parser.on("field", (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) fail(tooLarge(name, "must be at most 64 KB"));
    else values.push([name, value]);
  });
  // Forms keep text only: a file part is read through and dropped.
  parser.on("file", (_name, stream) => stream.resume());
  const tooMany = () => fail(tooLarge("body", `must have at most ${FIELD_COUNT} values`));
  parser.on("fieldsLimit", tooMany);
  parser.on("partsLimit", tooMany);
  parser.on("filesLimit", tooMany);
  try {
    await pipeline(source, parser);
  } catch (error) {
    throw failure ?? (error instanceof ApiError ? error : malformed());
  }
  if (failure) throw failure;
  return values;
}
