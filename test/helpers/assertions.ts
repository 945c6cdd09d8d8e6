// Assertions the REST tests share: the documented error body and its 422 paths, timestamps, 201 answers
// and the blueprint shape.
import { expect } from "vitest";
import type { ApiResponse } from "./api.ts";

/** An ISO 8601 timestamp as the API writes it: seconds, at most microseconds, `Z` or `±hh:mm`. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** No stack frames, source locations, module paths or database internals in a response's text. */
export function expectNoInternals(text: string, label = ""): void {
  expect(text, label).not.toMatch(/(^|\n|\\n)\s*at\s/);
  expect(text, label).not.toMatch(/\bat\s+[\w.<>]+\s+\([^)]*:\d+:\d+\)/);
  expect(text, label).not.toMatch(/\.(ts|js|mjs|cjs):\d+/);
  expect(text, label).not.toMatch(
    /node_modules|PrismaClient|prisma\.\w+\.\w+\(|SQLITE_|duplicate key value/i,
  );
}

/**
 * The status and the documented error body: JSON, `{error: string, details: [{path: string, message:
 * string}]}`, and nothing internal in the text.
 */
export function expectErrorBody(response: ApiResponse, status: number, label = ""): ErrorDetail[] {
  expect(response.status, `${label} ${status} expected, got ${response.status}: ${response.text}`).toBe(
    status,
  );
  expect(response.headers.get("content-type") ?? "", label).toMatch(/application\/json/);
  expect(typeof response.body?.error, label).toBe("string");
  expect(Array.isArray(response.body?.details), label).toBe(true);
  for (const detail of response.body.details) {
    expect(typeof detail.path, label).toBe("string");
    expect(typeof detail.message, label).toBe("string");
  }
  expectNoInternals(response.text, label);
  return response.body.details;
}

/**
 * The documented error body exactly (`expectErrorBody`, with no keys besides `error` and `details`, a
 * non-empty `error`, and details of only `path` and `message`); given paths, the details name exactly
 * those (order free).
 */
export function expectError(response: ApiResponse, status: number, ...paths: string[]): ErrorDetail[] {
  const details = expectErrorBody(response, status);
  expect(Object.keys(response.body).sort()).toEqual(["details", "error"]);
  expect(response.body.error.length).toBeGreaterThan(0);
  for (const detail of details) expect(Object.keys(detail).sort()).toEqual(["message", "path"]);
  if (paths.length > 0) expect(details.map((detail) => detail.path).sort()).toEqual([...paths].sort());
  return details;
}

/** A 422 whose details name exactly these paths (order free; none means no details). */
export function expect422(response: ApiResponse, ...paths: string[]): void {
  const details = expectError(response, 422);
  expect(details.map((detail) => detail.path).sort()).toEqual([...paths].sort());
}

/** A 422 one of whose details names `path` (others may name more). */
export function expect422Naming(response: ApiResponse, path: string): void {
  const details = expectError(response, 422);
  expect(details.map((detail) => detail.path)).toContain(path);
}

/** A 201 answer; its body. */
export async function expectCreated(pending: ApiResponse | Promise<ApiResponse>): Promise<any> {
  const response = await pending;
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Every response field of a blueprint. */
export const blueprintShape = (handle: unknown, title: unknown, fields: unknown[] = []) => ({
  id: expect.stringMatching(/^blprt_/),
  handle,
  title,
  fields,
  created_at: expect.stringMatching(ISO),
  updated_at: expect.stringMatching(ISO),
});
