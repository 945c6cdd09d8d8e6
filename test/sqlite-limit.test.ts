// Which trailing LIMITs are written into a statement's text (src/db/sqlite-statements.ts); the statements
// themselves run through the real client in test/sqlite-statements.test.ts.
import { describe, expect, it } from "vitest";
import { LIMITS_PER_TEXT, statementsByText } from "../src/db/sqlite-statements.ts";

/** The texts that would be prepared: a "statement" here is its text. */
const fixedLimits = (texts: number) => {
  const statementFor = statementsByText((sql) => sql, texts);
  return (sql: string, args: unknown[]) => {
    const { statement, args: bound } = statementFor(sql, args);
    return { sql: statement, args: bound };
  };
};

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

describe("the statements kept per text", () => {
  it("prepares a text once as sent and once per limit written in, however often each is run", () => {
    const prepared: string[] = [];
    const statementFor = statementsByText((sql) => {
      prepared.push(sql);
      return { sql };
    }, 10);
    const first = statementFor(page, ["a1", 20, 0]).statement;
    for (let run = 0; run < 3; run++) {
      expect(statementFor(page, ["a1", 20, run]).statement).toBe(first);
      statementFor(page, ["a1", 1.5, run]);
      statementFor("SELECT 1", []);
    }
    expect(prepared).toEqual([page.replace("LIMIT ?", "LIMIT 20"), page, "SELECT 1"]);
    // A limit bound as a bigint is the same limit.
    expect(statementFor(page, ["a1", 20n, 0]).statement).toBe(first);
    expect(prepared).toHaveLength(3);
  });

  it("prepares again a text let go as the least recently run", () => {
    const prepared: string[] = [];
    const statementFor = statementsByText((sql) => prepared.push(sql), 2);
    for (const sql of ["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 2", "SELECT 1"]) statementFor(sql, []);
    expect(prepared).toEqual(["SELECT 1", "SELECT 2", "SELECT 3", "SELECT 1"]);
  });
});
