// The query-plan cache (src/db/plan-cache.ts): which requests share a plan, and that a shared plan gets
// each request's own values back. End to end, every entries and site test runs through it.
import { describe, expect, it } from "vitest";
import { fill, parameterize } from "../src/db/plan-cache.ts";

const read = (where: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    modelName: "Entry",
    action: "findFirst",
    query: { arguments: { where, ...extra }, selection: { $scalars: true } },
  });

describe("plan cache keys", () => {
  it("gives reads that differ only in where strings one key, and their strings in order", () => {
    const a = parameterize(read({ accountId: "acct_1", handle: "first" }));
    const b = parameterize(read({ accountId: "acct_2", handle: "second" }));
    expect(a?.key).toBe(b?.key);
    expect(a?.values).toEqual(["acct_1", "first"]);
    expect(b?.values).toEqual(["acct_2", "second"]);
  });

  it("keeps numbers, booleans, nulls, sort orders, modes and tagged values in the key", () => {
    const base = parameterize(read({ published: true, position: 1 }, { orderBy: [{ createdAt: "desc" }] }));
    expect(
      parameterize(read({ published: false, position: 1 }, { orderBy: [{ createdAt: "desc" }] }))?.key,
    ).not.toBe(base?.key);
    expect(
      parameterize(read({ published: true, position: 2 }, { orderBy: [{ createdAt: "desc" }] }))?.key,
    ).not.toBe(base?.key);
    expect(
      parameterize(read({ published: true, position: 1 }, { orderBy: [{ createdAt: "asc" }] }))?.key,
    ).not.toBe(base?.key);
    const date = (value: string) => read({ createdAt: { lt: { $type: "DateTime", value } } });
    expect(parameterize(date("2026-01-01T00:00:00Z"))?.key).not.toBe(
      parameterize(date("2026-01-02T00:00:00Z"))?.key,
    );
    const mode = (value: string) => read({ title: { contains: "x", mode: value } });
    expect(parameterize(mode("insensitive"))?.key).not.toBe(parameterize(mode("default"))?.key);
  });

  it("leaves writes alone", () => {
    const create = JSON.stringify({
      modelName: "Entry",
      action: "createOne",
      query: { arguments: { data: {} } },
    });
    expect(parameterize(create)).toBeNull();
  });
});

describe("filling a plan", () => {
  it("puts each value where its placeholder was, in a copy", () => {
    const shape = parameterize(read({ accountId: "a", handle: "h" }));
    if (!shape) throw new Error("no shape");
    const { accountId: account, handle } = JSON.parse(shape.key).query.arguments.where;
    const plan = { type: "query", args: { sql: "SELECT ...", args: [account, handle, "1"] } };
    const filled = fill(plan, ["acct_9", "post-9"]);
    expect(filled).toEqual({ type: "query", args: { sql: "SELECT ...", args: ["acct_9", "post-9", "1"] } });
    expect(plan.args.args[0]).toBe(account);
  });

  it("refuses a plan where a placeholder was built into another string (a LIKE pattern)", () => {
    const shape = parameterize(read({ title: { contains: "x" } }));
    const placeholder = JSON.parse(shape?.key ?? "{}").query.arguments.where.title.contains as string;
    expect(fill({ args: [`%${placeholder}%`] }, ["x"])).toBeNull();
  });

  it("refuses a plan where a placeholder was serialized into a JSON value (a JSON filter's equals)", () => {
    const shape = parameterize(read({ data: { path: ["category"], equals: "news" } }));
    const placeholder = JSON.parse(shape?.key ?? "{}").query.arguments.where.data.equals as string;
    expect(fill({ args: ["category", JSON.stringify(placeholder)] }, ["category", "news"])).toBeNull();
  });

  it("refuses a plan where a placeholder became an object key", () => {
    const shape = parameterize(read({ handle: "x" }));
    const placeholder = JSON.parse(shape?.key ?? "{}").query.arguments.where.handle as string;
    expect(fill({ columns: { [placeholder]: 1 }, args: [placeholder] }, ["x"])).toBeNull();
  });
});
