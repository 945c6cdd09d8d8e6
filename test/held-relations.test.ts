// Relations a write's resolver already holds are put on its answer instead of being read back
// (src/schema/held-relations.ts), only when the held row has everything the selection asks for.
import { describe, expect, it } from "vitest";
import { withHeldRelations } from "../src/schema/held-relations.ts";

const collection = { id: "clctn_1", handle: "posts", name: "Posts" };

describe("withHeldRelations", () => {
  it("leaves out a relation whose selected columns the held row has, and puts the row on the answer", () => {
    const query = {
      include: { collection: { select: { handle: true } }, blueprint: { select: { fields: true } } },
    };
    const held = withHeldRelations(query, { collection });
    expect(held.query).toEqual({ include: { blueprint: { select: { fields: true } } } });
    expect(held.attach({ id: "cnety_1" })).toEqual({ id: "cnety_1", collection });
    // The caller's query is not changed.
    expect(query.include.collection).toEqual({ select: { handle: true } });
  });

  it("works the same inside a select", () => {
    const held = withHeldRelations(
      { select: { id: true, collection: { select: { name: true } } } },
      { collection },
    );
    expect(held.query).toEqual({ select: { id: true } });
    expect(held.attach({ id: "cnety_1" })).toEqual({ id: "cnety_1", collection });
  });

  it("reads back what the held row cannot answer: every column, a missing column, a nested relation", () => {
    for (const selection of [
      true,
      { select: { handle: true, routing: true } },
      { select: { handle: true, account: true } },
      { select: { handle: true }, where: { id: "clctn_2" } },
    ]) {
      const query = { include: { collection: selection } };
      const held = withHeldRelations(query, { collection: { ...collection, account: undefined } });
      expect(held.query).toEqual(query);
      expect(held.attach({ id: "cnety_1" })).toEqual({ id: "cnety_1" });
    }
  });

  it("reads the relation back when leaving it out would leave a select of nothing", () => {
    const query = { select: { collection: { select: { handle: true } } } };
    const held = withHeldRelations(query, { collection });
    expect(held.query).toEqual(query);
    expect(held.attach({ id: "cnety_1" })).toEqual({ id: "cnety_1" });
  });

  it("changes nothing without a selection", () => {
    const held = withHeldRelations({}, { collection });
    expect(held.query).toEqual({});
    expect(held.attach({ id: "cnety_1" })).toEqual({ id: "cnety_1" });
  });
});
