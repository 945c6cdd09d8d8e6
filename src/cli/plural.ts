// Counts in the CLI's words: "1 asset file", "2 asset files", "1 entry" ("1 assets" once read oddly).

/** `count` followed by the noun, singular for exactly one; `plural` for nouns not made by adding "s". */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
