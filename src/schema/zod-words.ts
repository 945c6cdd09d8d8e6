// Every rule declared with zod answers in the project's words: a schema's own message wins, and this map
// words the rest (`z.string().min(1)` without one would answer "Too small: expected string to have >=1
// characters"). Set for the whole process, when the schema loads.
import { type core, z } from "zod";

const typeWords: Record<string, string> = {
  string: "must be a string",
  number: "must be a number",
  int: "must be a whole number",
  boolean: "must be true or false",
  array: "must be a list",
  object: "must be an object",
  record: "must be an object",
  date: "must be a date",
  null: "must be null",
};

const unit = (origin: string, count: number | bigint) =>
  origin === "string"
    ? ` character${count === 1 ? "" : "s"}`
    : origin === "array" || origin === "set"
      ? ` item${count === 1 ? "" : "s"}`
      : "";

export function zodWords(issue: core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? "is required"
        : (typeWords[issue.expected] ?? `must be of type ${issue.expected}`);
    case "too_small": {
      const { origin, minimum } = issue;
      if ((origin === "string" || origin === "array") && Number(minimum) === 1) return "must not be empty";
      if (origin === "string") return `must be at least ${minimum}${unit(origin, minimum)}`;
      if (origin === "array" || origin === "set")
        return `must have at least ${minimum}${unit(origin, minimum)}`;
      return issue.inclusive === false ? `must be more than ${minimum}` : `must be ${minimum} or more`;
    }
    case "too_big": {
      const { origin, maximum } = issue;
      if (origin === "string") return `must be at most ${maximum}${unit(origin, maximum)}`;
      if (origin === "array" || origin === "set")
        return `must have at most ${maximum}${unit(origin, maximum)}`;
      return issue.inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
    }
    case "invalid_format":
      if (issue.format === "email") return "must be an email address";
      if (issue.format === "url") return "must be a URL";
      if (issue.format === "regex") return "is not in the expected format";
      return `must be a valid ${issue.format.replace(/_/g, " ")}`;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `has unknown keys: ${issue.keys.join(", ")}`;
    default:
      return "is not a valid value";
  }
}

z.config({ customError: zodWords });
