// The parsed-template cache of the site renderer on its own: keys follow the account and the template's
// source, and the cache stays within its bounds (least recently used out first).
import { describe, expect, it } from "vitest";
import { type RenderScope, withRenderScope } from "../src/render/render-scope.ts";
import { ParsedTemplateCache } from "../src/render/template-cache.ts";

const scopeOf = (accountId: string, templates: Record<string, string>): RenderScope => ({
  accountId,
  templates: new Map(Object.entries(templates)),
  forms: {},
  page: 1,
  path: "/",
  entries: async () => null,
});

const parsed = [] as never[];

describe("ParsedTemplateCache", () => {
  it("finds a parse only for the same account and the same source", async () => {
    const cache = new ParsedTemplateCache();
    await withRenderScope(scopeOf("a", { page: "v1" }), async () => cache.write("root:page", parsed));
    const read = (accountId: string, html: string) =>
      withRenderScope(scopeOf(accountId, { page: html }), async () => cache.read("partials:page"));
    expect(await read("a", "v1")).toBe(parsed);
    expect(await read("a", "v2")).toBeUndefined();
    expect(await read("b", "v1")).toBeUndefined();
    expect(cache.read("root:page")).toBeUndefined(); // outside a render
  });

  it("drops the least recently used parse past its entry count or source size", async () => {
    const cache = new ParsedTemplateCache(2, 10);
    const templates = { a: "1234", b: "5678", c: "9012", big: "x".repeat(11) };
    await withRenderScope(scopeOf("acct", templates), async () => {
      cache.write("root:a", parsed);
      cache.write("root:b", parsed);
      cache.read("root:a");
      cache.write("root:c", parsed);
      expect(cache.read("root:a")).toBe(parsed);
      expect(cache.read("root:b")).toBeUndefined();
      expect(cache.read("root:c")).toBe(parsed);
      // Larger than the whole bound: not kept, and the others stay.
      cache.write("root:big", parsed);
      expect(cache.read("root:big")).toBeUndefined();
      expect(cache.stats()).toMatchObject({ entries: 2, sourceChars: 8 });
    });
  });
});
