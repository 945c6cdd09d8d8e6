// The README's tool list, written from what the server lists (`npm run docs:tools` rewrites it; a test
// checks it against a live server's tools/list), so that the documentation cannot drift from the tools.
export interface ListedTool {
  name: string;
  description?: string;
  annotations?: { readOnlyHint?: boolean };
}

export const TOOL_LIST_START = "<!-- tools:start (npm run docs:tools) -->";
export const TOOL_LIST_END = "<!-- tools:end -->";

export function toolListMarkdown(tools: readonly ListedTool[]): string {
  const rows = tools.map(({ name, description, annotations }) => {
    const kind = annotations?.readOnlyHint ? "read" : "write";
    return `| \`${name}\` | ${kind} | ${(description ?? "").replaceAll("|", "\\|")} |`;
  });
  return [TOOL_LIST_START, "| Tool | Kind | Use it to |", "| --- | --- | --- |", ...rows, TOOL_LIST_END].join(
    "\n",
  );
}

/** The text with its tool list (between the markers) replaced; the markers must be there. */
export function withToolList(text: string, list: string): string {
  const start = text.indexOf(TOOL_LIST_START);
  const end = text.indexOf(TOOL_LIST_END);
  if (start < 0 || end < start) throw new Error("the tool list markers are missing");
  return text.slice(0, start) + list + text.slice(end + TOOL_LIST_END.length);
}
