// Answers to GET requests, kept in the read cache (src/schema/read-cache.ts) at the request's generation:
// a repeated read of unchanged data skips the execution of the route's operation and the serialization of its
// answer. The key is the path with its query and the caller (token): all a GET's answer depends
// on besides the data. Who may call is still checked on every request, before this.
import { Response } from "../http/fetch-api.ts";
import type { Context } from "../schema/index.ts";

interface KeptAnswer {
  body: string;
  contentType: string;
}

export async function keptAnswer(ctx: Context, url: URL, answer: () => Promise<Response>): Promise<Response> {
  // Answers off (READ_CACHE_MB=0): the answer as it is, without a copy of its body.
  if (!ctx.reads?.keeps(false)) return answer();
  const key = `rest\u0000${url.pathname}${url.search}\u0000${ctx.caller}`;
  const kept = await ctx.keep(
    key,
    async (): Promise<KeptAnswer | Response> => {
      const response = await answer();
      if (response.status !== 200) return response;
      const contentType = response.headers.get("content-type") ?? "application/json; charset=utf-8";
      return { body: await response.text(), contentType };
    },
    // Only 200 answers are kept.
    { size: (value) => (isKept(value) ? value.body.length * 2 : undefined), answer: true },
  );
  return isKept(kept) ? respond(kept) : kept;
}

/** By shape: a Response (an error, a non-200 answer) is passed on as it is. */
function isKept(value: KeptAnswer | Response): value is KeptAnswer {
  return typeof (value as KeptAnswer).contentType === "string" && !("status" in value);
}

function respond({ body, contentType }: KeptAnswer): Response {
  return new Response(body, { status: 200, headers: { "content-type": contentType } });
}
