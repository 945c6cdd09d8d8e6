// Which trailing LIMITs are written into a statement's text (src/db/sqlite-limit.ts); the statements
// themselves run through the real client in test/sqlite-statements.test.ts.
import { describe, expect, it } from "vitest";
import { fixedLimits, LIMITS_PER_TEXT } from "../src/db/sqlite-limit.ts";

const page = "SELECT id FROM Entry WHERE accountId = ? ORDER BY id LIMIT ? OFFSET ?";

describe("a bound LIMIT written into the text", () => {
  it("writes in the limit of `LIMIT ?` and of `LIMIT ? OFFSET ?`, keeping the other arguments in order", () => {
    const fixed = fixedLimits(10);
    expect(fixed("SELECT id FROM Entry WHERE id = ? LIMIT ?", ["e1", 1])).toEqual({
      sql: "SELECT id FROM Entry WHERE id = ? LIMIT 1",
      args: ["e1"],
    });
    expect(fixed(page, ["a1", 20, 40])).toEqual({
      sql: "SELECT id FROM Entry WHERE accountId = ? ORDER BY id LIMIT 20 OFFSET ?",
      args: ["a1", 40],
    });
    expect(fixed(page, ["a1", -1, 5]).sql).toMatch(/ LIMIT -1 OFFSET \?$/);
    expect(fixed(page, ["a1", 3n, 0]).sql).toMatch(/ LIMIT 3 OFFSET \?$/);
  });

  it("leaves bound what is not a whole number, a limit inside a comment, and other texts", () => {
    const fixed = fixedLimits(10);
    for (const [sql, args] of [
      [page, ["a1", 1.5, 0]],
      [page, ["a1", "20", 0]],
      ["SELECT id FROM Entry WHERE id > ? -- LIMIT ?", [1]],
      ["SELECT id FROM Entry LIMIT ?2", [0, 1]],
      ["SELECT id FROM Entry LIMIT 5", []],
    ] as const) {
      expect(fixed(sql, [...args])).toEqual({ sql, args });
    }
  });

  it(`writes in at most ${LIMITS_PER_TEXT} limits a text: the first ones asked, again and again`, () => {
    const fixed = fixedLimits(10);
    const limits = Array.from({ length: LIMITS_PER_TEXT + 2 }, (_, index) => index + 1);
    const written = limits.map((limit) => fixed(page, ["a1", limit, 0]).args.length === 2);
    expect(written).toEqual(limits.map((limit) => limit <= LIMITS_PER_TEXT));
    expect(fixed(page, ["a1", 1, 0]).sql).toMatch(/ LIMIT 1 OFFSET \?$/);
    expect(fixed(page, ["a1", LIMITS_PER_TEXT + 1, 0])).toEqual({
      sql: page,
      args: ["a1", LIMITS_PER_TEXT + 1, 0],
    });
    // Another text has its own.
    const other = page.replace("id FROM", "handle FROM");
    expect(fixed(other, ["a1", 99, 0]).args).toEqual(["a1", 0]);
  });
});
