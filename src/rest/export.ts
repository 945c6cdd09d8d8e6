// GET /v1/accounts/:account_id/export.yaml: the account's site as one YAML document, streamed. It is
// answered here rather than through the route table because sofa answers with an operation's whole
// result as one JSON value, while this document can be far larger than memory (100,000 entries) and is
// sent part by part as the schema produces it. It stays transport only: who may read, and what the
// document holds, are the schema's exportSite.
import { Response } from "../http/fetch-api.ts";
import { log } from "../log.ts";
import type { Context } from "../schema/context.ts";
import { exportSite } from "../schema/export/index.ts";

export const EXPORT_PATH = /^\/v1\/accounts\/([^/]+)\/export\.yaml$/;

export async function exportAnswer(ctx: Context, accountId: string, headOnly: boolean): Promise<Response> {
  // Errors (401, 403) are thrown before the first byte, while the status can still say so.
  const { parts } = await exportSite(ctx, accountId);
  const headers = {
    "content-type": "application/yaml; charset=utf-8",
    "content-disposition": 'attachment; filename="export.yaml"',
    "cache-control": "no-store",
  };
  if (headOnly) {
    await parts.return();
    return new Response(null, { headers });
  }
  const encoder = new TextEncoder();
  // Pulled: the next part is read from the database only when the client has taken the last one.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await parts.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        // The status is sent already: the client sees a cut-off document, without its `complete` line.
        log({ level: "error", msg: "export failed", error: String(error) });
        controller.error(error);
      }
    },
    async cancel() {
      await parts.return();
    },
  });
  return new Response(body, { headers });
}
