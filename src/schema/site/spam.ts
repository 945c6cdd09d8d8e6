// The automatic spam check of forms with `spam_check_enabled`: submissions full of links or carrying the
// usual spam phrases are dropped (answered as a success, never saved), and one address may submit such a
// form at most SUBMISSIONS_PER_WINDOW times in WINDOW_MS (past that: 429, nothing saved).
import type { Context } from "../context.ts";
import { ApiError } from "../errors.ts";

const MAX_LINKS = 3;
const patterns = [
  /\b(viagra|cialis|casino|crypto ?currency|bitcoin|forex|payday loan|seo services|backlinks?)\b/i,
  /\[url=|<a\s+href=/i,
  /(.)\1{30,}/,
];

export function looksLikeSpam(values: Record<string, unknown>): boolean {
  const text = Object.values(values)
    .filter((value): value is string => typeof value === "string")
    .join("\n");
  const links = text.match(/https?:\/\/|www\./gi)?.length ?? 0;
  return links > MAX_LINKS || patterns.some((pattern) => pattern.test(text));
}

export const SUBMISSIONS_PER_WINDOW = 10;
export const WINDOW_MS = 10 * 60_000;

/**
 * Counts a submission of `formId` from the request's client address, or refuses it with a 429 when that
 * address already sent SUBMISSIONS_PER_WINDOW within the window. Without a known address (in-process
 * calls) nothing is counted.
 */
export async function countSubmission(ctx: Context, formId: string): Promise<void> {
  if (!ctx.clientIp) return;
  const admitted = await ctx.submissions.admit(
    `${formId}:${ctx.clientIp}`,
    SUBMISSIONS_PER_WINDOW,
    WINDOW_MS,
  );
  if (admitted.allowed) return;
  const wait = Math.max(1, Math.ceil(admitted.retryInMs / 1000));
  throw new ApiError(429, "Too many submissions", [
    { path: "body", message: `this form was sent too often from your address; try again in ${wait} s` },
  ]);
}
