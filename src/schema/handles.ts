// Handles: URL- and Liquid-friendly names, unique per account (entries: per collection). A `:id` in a
// path is a prefix ID when it has the exact shape of one (ids.ts), else a handle; a handle may therefore
// start with the resource's prefix (`nav_main`), but not have the whole shape of its ID.
import { z } from "zod";
import type { Context } from "./context.ts";
import { ApiError } from "./errors.ts";
import { isIdOf } from "./ids.ts";

export const HANDLE_MAX = 100;
const handlePattern = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;

export function handleSchema(prefix?: string) {
  return z
    .string()
    .min(1, "must not be empty")
    .max(HANDLE_MAX, `must be at most ${HANDLE_MAX} characters`)
    .regex(
      handlePattern,
      "may contain only lowercase letters, digits, '-' and '_', and must start and end with a letter or digit",
    )
    .refine((handle) => !prefix || !isIdOf(handle, prefix), idShapeMessage(prefix ?? ""));
}

/** Why a handle with the shape of its resource's ID is refused: a path could not tell them apart. */
export function idShapeMessage(prefix: string): string {
  return `must not have the shape of an ID ('${prefix}' followed by 26 letters and digits)`;
}

/** The where-clause for a path `:id` that may be a prefix ID or a handle. */
export function idOrHandle(value: string, prefix: string): { id: string } | { handle: string } {
  return isIdOf(value, prefix) ? { id: value } : { handle: value };
}

/**
 * A handle generated from a title: "Contact us!" -> "contact-us", or "contact_us" with separator "_".
 */
export function handleFromTitle(title: string, fallback: string, separator: "-" | "_" = "-"): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, HANDLE_MAX)
    .replace(/[-_]+$/, "");
  return slug || fallback;
}

// The tool interface requires snake_case handles (content-api.md: "REST accepts hyphenated handles. The
// separate tool interface requires snake_case."). Only handles a request creates or renames are held to
// it, so records made through REST stay readable, updatable and deletable there. Template handles may
// hold folders (`pages/about_us`): each folder name is snake_case.
const snakeCasePattern = /^[a-z0-9_]+(?:\/[a-z0-9_]+)*$/;

/** Refuses a handle this request creates or renames when the caller's handle style does not allow it. */
export function requireHandleStyle(ctx: Pick<Context, "handleStyle">, path: string, handle: string): void {
  if (ctx.handleStyle === "snake_case" && !snakeCasePattern.test(handle)) {
    throw ApiError.invalid(
      path,
      "must be snake_case (lowercase letters, digits and '_'; no '-') in the tool interface",
    );
  }
}

/** The handle generated from a title when none is sent, spelled in the caller's handle style. */
export function generatedHandle(ctx: Pick<Context, "handleStyle">, title: string, fallback: string): string {
  return handleFromTitle(title, fallback, ctx.handleStyle === "snake_case" ? "_" : "-");
}
