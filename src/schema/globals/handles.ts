// Global handles are Liquid variable names (content-api.md, "Global": snake_case). A global's embedded
// blueprint is named after it with a `global:` prefix, which no client-chosen blueprint handle can take.
import { z } from "zod";
import { idShapeMessage } from "../handles.ts";
import { isIdOf, prefixes } from "../ids.ts";

export const GLOBAL_HANDLE_MAX = 64;

export const globalHandleSchema = z
  .string()
  .max(GLOBAL_HANDLE_MAX, `must be at most ${GLOBAL_HANDLE_MAX} characters`)
  .regex(
    /^[a-z][a-z0-9_]*$/,
    "must be snake_case: a lowercase letter, then lowercase letters, digits and '_'",
  )
  .refine((handle) => !isIdOf(handle, prefixes.global), idShapeMessage(prefixes.global));

/** A snake_case handle from a name: "Site Settings!" -> "site_settings"; empty when nothing is left. */
export function globalHandleFromName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+/, "")
    .slice(0, GLOBAL_HANDLE_MAX)
    .replace(/_+$/, "");
}

/** The handle of a global's own blueprint. */
export function blueprintHandleOf(globalHandle: string): string {
  return `global:${globalHandle}`;
}
