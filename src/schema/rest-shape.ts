// The shape REST gives a record (content-api.md), which the tool interface and webhook events answer too:
// related records nested to sofa's depth, and blueprint values as top-level keys.

/** How deep REST answers nest related records (sofa's depth limit). */
export const ANSWER_DEPTH = 2;

/**
 * A record, a list envelope of records, or a payload holding its record in `record` (a trash restore), with
 * blueprint values as top-level keys.
 */
export function spreadValues(body: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(body.data)) return { ...body, data: body.data.map(spread) };
  if (isRecord(body.record)) return { ...body, record: spread(body.record) };
  return spread(body);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{..., values: {a, b}}` -> `{..., a, b}`; the record's own keys win over values of the same name. */
function spread(record: Record<string, unknown>): Record<string, unknown> {
  const { values, ...own } = record;
  return { ...own, ...(values as Record<string, unknown>), ...own };
}
