// Reading a request body as a stream within a byte limit, shared by the REST upload and the site's form
// posts (both feed a multipart parser) and the JSON bodies of REST and GraphQL: the chunks are counted as
// they pass, and a body cut short is still drained so the client is not left blocked.
import { ApiError } from "../schema/errors.ts";

/** How much of an oversized JSON body is read and dropped before the connection is cut instead. */
const DISCARD_FACTOR = 4;

/** The documented 413 of a JSON body past its limit. */
export function bodyTooLarge(limit: number): ApiError {
  return new ApiError(413, "Request body too large", [
    { path: "body", message: `must be at most ${Math.floor(limit / 1024 / 1024)} MB` },
  ]);
}

/**
 * The documented 400 of a body that is not UTF-8, which JSON must be (RFC 8259, section 8.1), and the
 * import's YAML is read as.
 */
export function notUtf8(format: "JSON" | "YAML" = "JSON"): ApiError {
  return new ApiError(400, `Malformed ${format}`, [{ path: "body", message: "is not valid UTF-8 text" }]);
}

/**
 * The 400 of a body the client stopped sending: its connection closed before the body was complete.
 * Nobody reads the answer; it keeps a client's departure out of the server's own errors.
 */
export function bodyIncomplete(): ApiError {
  return new ApiError(400, "Request body incomplete", [
    { path: "body", message: "the connection closed before the body was complete" },
  ]);
}

/**
 * The body as UTF-8 text, refused with `bodyTooLarge` (and drained) once it passes `limit` bytes, declared
 * or sent, and with `notUtf8` when its bytes are no UTF-8: decoded leniently, they would be stored as
 * U+FFFD replacement characters the client never sent.
 */
export async function readLimitedText(
  request: Request,
  limit: number,
  format: "JSON" | "YAML" = "JSON",
): Promise<string> {
  const declared = request.headers.get("content-length");
  if (Number(declared) > limit) {
    if (request.body) void discardRest(request.body.getReader(), DISCARD_FACTOR * limit);
    throw bodyTooLarge(limit);
  }
  const bytes =
    declared === null ? Buffer.concat(await chunksWithin(request, limit)) : await wholeBody(request);
  try {
    return utf8.decode(bytes);
  } catch {
    throw notUtf8(format);
  }
}

/** Strict: stateless between calls, since none decodes in `stream` mode. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A body of declared length, in one call: that length is all the body there can be (Node's parser ends the
 * body there), so it need not be counted chunk by chunk through the adapter's web stream (docs/performance.md).
 */
async function wholeBody(request: Request): Promise<ArrayBuffer> {
  try {
    return await request.arrayBuffer();
  } catch {
    throw bodyIncomplete();
  }
}

/** A body of no declared length, chunk by chunk within `limit`. */
async function chunksWithin(request: Request, limit: number): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of limitedChunks(
    request.body,
    limit,
    () => bodyTooLarge(limit),
    DISCARD_FACTOR * limit,
  )) {
    chunks.push(chunk);
  }
  return chunks;
}

/**
 * The body's chunks, counted: past `max` bytes it stops with `tooLarge()`. Stopped early (too large, or
 * the consumer failed), the rest of the body is read and dropped, up to `discardCap` bytes.
 */
export async function* limitedChunks(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  tooLarge: () => Error,
  discardCap: number,
): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let size = 0;
  let done = false;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        // The body's stream broke: in practice, the client left or reset the connection.
        throw bodyIncomplete();
      }
      if (next.done) {
        done = true;
        return;
      }
      size += next.value.byteLength;
      if (size > max) throw tooLarge();
      yield next.value;
    }
  } finally {
    if (!done) void discardRest(reader, discardCap);
  }
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
