// The automatic spam check of forms with `spam_check_enabled`: submissions full of links or carrying the
// usual spam phrases are dropped (answered as a success, never saved).
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
