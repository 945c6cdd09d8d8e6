// `npm run docs:tools`: rewrites the README's tool list from the tool interface's own table.
import { readFile, writeFile } from "node:fs/promises";
import { toolListMarkdown, withToolList } from "../src/mcp/tool-list.ts";
import { buildTools } from "../src/mcp/tools.ts";
import { schema } from "../src/schema/index.ts";

const readme = new URL("../README.md", import.meta.url);
const text = await readFile(readme, "utf8");
await writeFile(readme, withToolList(text, toolListMarkdown(buildTools(schema))));
console.error("README.md: tool list written");
