// The query-plan cache (src/db/plan-cache.ts): which requests share a plan, and that a shared plan gets
// each request's own values back. End to end, every test's reads and writes run through it, and
// plan-cache-writes.test.ts reads back what shared write plans stored.
import { describe, expect, it } from "vitest";
import { Recent } from "../src/db/plan-cache.ts";
import { parameterize } from "../src/db/plan-shape.ts";
import { fillSlots, slotsOf } from "../src/db/plan-slots.ts";

const read = (where: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    modelName: "Entry",
    action: "findFirst",
    query: { arguments: { where, ...extra }, selection: { $scalars: true } },
  });

const create = (data: unknown) =>
  JSON.stringify({ modelName: "Entry", action: "createOne", query: { arguments: { data } } });

const shapeOf = (request: string) => {
  const shape = parameterize(request);
  if (!shape) throw new Error("no shape");
  return { ...shape, args: JSON.parse(shape.key).query.arguments };
};

/** Fills `plan` (written with the shape's placeholders) with `values`; null when it cannot. */
const fill = (request: string, plan: (args: any) => unknown, values: unknown[]) => {
  const shape = shapeOf(request);
  const compiled = plan(shape.args);
  const slots = slotsOf(compiled, shape);
  return slots ? fillSlots(compiled, slots, values) : null;
};

describe("plan shapes", () => {
  it("gives reads that differ only in where strings one key, and their strings in order", () => {
    const a = parameterize(read({ accountId: "acct_1", handle: "first" }));
    const b = parameterize(read({ accountId: "acct_2", handle: "second" }));
    expect(a?.key).toBe(b?.key);
    expect(a?.values).toEqual(["acct_1", "first"]);
    expect(b?.values).toEqual(["acct_2", "second"]);
  });

  it("replaces the strings of a nested selection's where too", () => {
    const withChild = (handle: string) =>
      JSON.stringify({
        modelName: "Collection",
        action: "findFirst",
        query: {
          arguments: { where: { handle: "blog" } },
          selection: { entries: { arguments: { where: { handle }, take: 1 }, selection: { id: true } } },
        },
      });
    expect(parameterize(withChild("a"))?.key).toBe(parameterize(withChild("b"))?.key);
    expect(parameterize(withChild("b"))?.values).toEqual(["blog", "b"]);
  });

  it("keeps numbers, booleans, nulls, sort orders, modes and filter dates in a read's key", () => {
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

  it("gives creates that differ only in strings, dates and JSON values one key, and those values", () => {
    const row = (handle: string, day: string, data: unknown) =>
      create({ handle, position: 0, createdAt: { $type: "DateTime", value: day }, data });
    const a = shapeOf(row("a", "2026-01-01T00:00:00.000Z", { body: "x", n: 1 }));
    const b = shapeOf(row("b", "2026-02-01T00:00:00.000Z", { tags: ["y"] }));
    expect(a.key).toBe(b.key);
    expect(b.values).toEqual(["b", "2026-02-01T00:00:00.000Z", { tags: ["y"] }]);
    // None of the replaced values is left in the shape.
    expect(a.key).not.toMatch(/2026|"body"/);
  });

  it("keeps a write's numbers, update operations and nested writes in its key", () => {
    expect(shapeOf(create({ position: 1 })).key).not.toBe(shapeOf(create({ position: 2 })).key);
    const update = (by: number) =>
      JSON.stringify({
        modelName: "Entry",
        action: "updateMany",
        query: { arguments: { where: { id: "e" }, data: { version: { increment: by } } } },
      });
    expect(shapeOf(update(1)).key).not.toBe(shapeOf(update(2)).key);
    expect(shapeOf(update(1)).values).toEqual(["e"]);
    const connect = (id: string) => shapeOf(create({ blueprint: { connect: { id } } }));
    expect(connect("a").key).not.toBe(connect("b").key);
  });

  it("gives nested createMany rows that differ only in strings one key: an entry's references", () => {
    const references = (toIds: string[]) =>
      shapeOf(
        create({ references: { createMany: { data: toIds.map((toId) => ({ field: "author", toId })) } } }),
      );
    expect(references(["x"]).key).toBe(references(["y"]).key);
    expect(references(["x", "y"]).values).toEqual(["author", "x", "author", "y"]);
    expect(references(["x"]).key).not.toBe(references(["x", "y"]).key);
  });

  it("makes a string and a JSON value in one field two shapes", () => {
    expect(shapeOf(create({ data: "text" })).key).not.toBe(shapeOf(create({ data: { a: 1 } })).key);
  });

  it("leaves other actions alone", () => {
    const raw = JSON.stringify({ action: "executeRaw", query: { arguments: { query: "DELETE" } } });
    expect(parameterize(raw)).toBeNull();
  });
});

describe("filling a plan", () => {
  it("puts each value where its placeholder was, in a copy", () => {
    const request = read({ accountId: "a", handle: "h" });
    const plan = (args: any) => ({ sql: "SELECT ...", args: [args.where.accountId, args.where.handle, "1"] });
    expect(fill(request, plan, ["acct_9", "post-9"])).toEqual({
      sql: "SELECT ...",
      args: ["acct_9", "post-9", "1"],
    });
  });

  it("puts dates back whole, and JSON values and strings of JSON columns JSON-encoded", () => {
    const request = create({
      title: "t",
      data: { a: 1 },
      note: "n",
      createdAt: { $type: "DateTime", value: "2026-01-01T00:00:00.000Z" },
    });
    const plan = (args: any) => ({
      args: [
        args.data.title,
        JSON.stringify(args.data.data),
        JSON.stringify(args.data.note),
        args.data.createdAt.value,
      ],
    });
    const values = ["T", { b: ['"quoted"', 2.5] }, "N", "2026-03-04T05:06:07.089Z"];
    expect(fill(request, plan, values)).toEqual({
      args: ["T", '{"b":["\\"quoted\\"",2.5]}', '"N"', "2026-03-04T05:06:07.089Z"],
    });
  });

  it("refuses a plan where a placeholder was built into another string (a LIKE pattern)", () => {
    const request = read({ title: { contains: "x" } });
    expect(fill(request, (args) => ({ args: [`%${args.where.title.contains}%`] }), ["x"])).toBeNull();
  });

  it("refuses a plan where a JSON value's placeholder stands whole (the value is not JSON there)", () => {
    const request = create({ title: { a: 1 } });
    expect(fill(request, (args) => ({ args: [args.data.title] }), [{ a: 1 }])).toBeNull();
  });

  it("refuses a plan where a placeholder became an object key", () => {
    const request = read({ handle: "x" });
    expect(fill(request, (args) => ({ columns: { [args.where.handle]: 1 } }), ["x"])).toBeNull();
  });
});

describe("kept shapes", () => {
  it("forget the least recently used past their count or their characters of keys", () => {
    const byCount = new Recent<number>(2, 1000);
    byCount.keep("a", 1);
    byCount.keep("b", 2);
    byCount.use("a");
    byCount.keep("c", 3);
    expect([byCount.use("a"), byCount.use("b"), byCount.use("c")]).toEqual([1, undefined, 3]);

    const byChars = new Recent<number>(100, 10);
    byChars.keep("aaaa", 1);
    byChars.keep("bbbb", 2);
    byChars.keep("cccc", 3);
    expect([byChars.use("aaaa"), byChars.use("bbbb"), byChars.use("cccc")]).toEqual([undefined, 2, 3]);
    expect(byChars.forget("bbbb")).toBe(true);
    byChars.keep("dddddd", 4);
    expect([byChars.use("cccc"), byChars.use("dddddd")]).toEqual([3, 4]);
  });
});

describe("raw SQL", () => {
  const raw = (parameters: unknown[]) =>
    JSON.stringify({
      action: "executeRaw",
      query: {
        arguments: {
          query: "INSERT INTO t SELECT value ->> 0 FROM json_each(?)",
          parameters: JSON.stringify(parameters),
        },
        selection: {},
      },
    });

  it("shares a plan between string parameters, keeping the SQL and the other parameters", () => {
    const one = parameterize(raw(['[["a"]]', 5]));
    const two = parameterize(raw(['[["b"],["c"]]', 5]));
    expect(one?.key).toBe(two?.key);
    expect(one?.values).toEqual(['[["a"]]']);
    expect(two?.values).toEqual(['[["b"],["c"]]']);
    expect(parameterize(raw(['[["a"]]', 6]))?.key).not.toBe(one?.key);
    expect(parameterize(raw(['[["a"]]', 5]).replace("t SELECT", "u SELECT"))?.key).not.toBe(one?.key);
  });

  it("puts a request's own string back where the compiler wrote the placeholder", () => {
    const shape = shapeOf(raw(["rows", 5]));
    const parameters = JSON.parse(shape.args.parameters) as unknown[];
    const compiled = { type: "execute", args: { type: "rawSql", args: parameters, argTypes: [] } };
    const slots = slotsOf(compiled, shape);
    expect(slots && fillSlots(compiled, slots, ["other rows"])).toEqual({
      type: "execute",
      args: { type: "rawSql", args: ["other rows", 5], argTypes: [] },
    });
  });
});
