// Page-number pagination and the list envelope of content-api.md:
// { data: [...], pagination: { page, per_page, total, total_pages, next_page, prev_page } }.
import type { ObjectRef } from "@pothos/core";
import { z } from "zod";
import { builder } from "./builder.ts";

export const PAGE_SIZE = 20;
/** Pages past this would only be empty; refusing them keeps OFFSET small and integers safe. */
export const MAX_PAGE = 1_000_000;

export const pageSchema = z
  .number()
  .int()
  .min(1, "must be 1 or more")
  .max(MAX_PAGE, `must be at most ${MAX_PAGE}`);

export interface Page {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  next_page: number | null;
  prev_page: number | null;
}

export function pageOf(page: number, perPage: number, total: number): Page {
  const totalPages = Math.ceil(total / perPage);
  return {
    page,
    per_page: perPage,
    total,
    total_pages: totalPages,
    next_page: page < totalPages ? page + 1 : null,
    prev_page: page > 1 ? Math.min(page - 1, Math.max(totalPages, 1)) : null,
  };
}

/** skip/take for a page. */
export function window(page: number, perPage: number): { skip: number; take: number } {
  return { skip: (page - 1) * perPage, take: perPage };
}

export const PaginationRef = builder.objectRef<Page>("Pagination").implement({
  fields: (t) => ({
    page: t.exposeInt("page"),
    per_page: t.exposeInt("per_page"),
    total: t.exposeInt("total"),
    total_pages: t.exposeInt("total_pages"),
    next_page: t.exposeInt("next_page", { nullable: true }),
    prev_page: t.exposeInt("prev_page", { nullable: true }),
  }),
});

export interface ListShape<T> {
  data: T[];
  pagination: Page;
}

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** The envelope type `<Name>List { data: [Name!]!, pagination: Pagination! }`. */
export function listType<T>(name: string, item: ObjectRef<BuilderTypes, T>) {
  return builder.objectRef<ListShape<T>>(`${name}List`).implement({
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (list) => list.data }),
      pagination: t.field({ type: PaginationRef, resolve: (list) => list.pagination }),
    }),
  });
}

/** Counts the matches and reads one page of them, in parallel. */
export async function listPage<T>(
  page: number | null | undefined,
  count: Promise<number>,
  read: (range: { skip: number; take: number }) => Promise<T[]>,
  perPage = PAGE_SIZE,
): Promise<ListShape<T>> {
  const current = page ?? 1;
  const [total, data] = await Promise.all([count, read(window(current, perPage))]);
  return { data, pagination: pageOf(current, perPage, total) };
}
