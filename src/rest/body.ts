// Reading a JSON request body within the size limit (decisions.md: 2 MB; 413 past it, 400 when it is
// not JSON or not an object).
import { ApiError } from "../schema/errors.ts";

/** How much of an oversized body is read and dropped before the connection is cut instead. */
const DISCARD_FACTOR = 4;

export async function readJsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > limit) {
    if (request.body) void discardRest(request.body.getReader(), DISCARD_FACTOR * limit);
    throw tooLarge(limit);
  }
  const text = await readText(request, limit);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "is not valid JSON" }]);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError(400, "Malformed JSON", [{ path: "body", message: "must be a JSON object" }]);
  }
  return body as Record<string, unknown>;
}

async function readText(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void discardRest(reader, DISCARD_FACTOR * limit);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/**
 * A client still sending an oversized body would block on a full socket if nobody read it: the rest is
 * read and thrown away (up to `cap` bytes, past which the stream is cut) while the 413 goes out.
 */
export async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  cap: number,
): Promise<void> {
  try {
    for (let read = 0; read <= cap; ) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to discard.
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, "Request body too large", [
    { path: "body", message: `must be at most ${Math.floor(limit / 1024 / 1024)} MB` },
  ]);
}
