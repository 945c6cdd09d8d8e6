// Recognising the database errors that carry meaning for a client.
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "P2002";
}

export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2003" || code === "P2014";
}

/**
 * A row written names one that is not there (P2003). A delete a restricting reference refuses is a P2003
 * too: the one such delete here (a blueprint's) answers it itself (blueprints/mutations.ts).
 */
export function isReferenceGone(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "P2003";
}

/** The record an update, delete or `…OrThrow` read needed is gone: the model it looked in, else undefined. */
export function missingRecord(error: unknown): string | undefined {
  const known = error as { code?: unknown; meta?: { modelName?: unknown } } | null;
  if (known?.code !== "P2025") return undefined;
  return typeof known.meta?.modelName === "string" ? known.meta.modelName : "Record";
}
