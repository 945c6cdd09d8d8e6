// Parsed templates reused across requests. liquidjs asks its cache for `<lookup type>:<handle>`; the
// entry is found under the render's account, the handle and the content hash of the template's current
// source, so an edited template is parsed again on its next request (and the old parse ages out), and
// one account's parse is never another's. Least recently used entries go first past a count or a total
// source size.
import type { Template } from "liquidjs";
import { currentScope, templateHash } from "./render-scope.ts";

type Parsed = Template[] | Promise<Template[]>;

/** liquidjs's `cache` option (its LiquidCache interface). */
export class ParsedTemplateCache {
  private readonly entries = new Map<string, { parsed: Parsed; size: number }>();
  private sourceChars = 0;

  /** `finish` completes each fresh parse before any render uses it (liquidjs writes a parse here first). */
  constructor(
    private readonly maxEntries = 2_000,
    private readonly maxSourceChars = 64 * 1024 * 1024,
    private readonly finish: (templates: Template[]) => void = () => {},
  ) {}

  read(key: string): Parsed | undefined {
    const versioned = versionedKey(key);
    const entry = versioned && this.entries.get(versioned.key);
    if (!versioned || !entry) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(versioned.key);
    this.entries.set(versioned.key, entry);
    return entry.parsed;
  }

  write(key: string, parsed: Parsed): void {
    const versioned = versionedKey(key);
    if (!versioned) return;
    this.delete(versioned.key);
    // A promise's callbacks run in the order they were added: this one before the render's own.
    if (Array.isArray(parsed)) this.finish(parsed);
    else void parsed.then(this.finish, () => {});
    this.entries.set(versioned.key, { parsed, size: versioned.size });
    this.sourceChars += versioned.size;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.sourceChars <= this.maxSourceChars) break;
      this.delete(oldest);
    }
  }

  remove(key: string): void {
    const versioned = versionedKey(key);
    if (versioned) this.delete(versioned.key);
  }

  /** How many parses are kept and how much source they stand for. */
  stats(): { entries: number; sourceChars: number } {
    return { entries: this.entries.size, sourceChars: this.sourceChars };
  }

  clear(): void {
    this.entries.clear();
    this.sourceChars = 0;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.sourceChars -= entry.size;
  }
}

/** liquidjs's `root:post` / `partials:byline` as `<account>\n<handle>\n<content hash>`. */
function versionedKey(key: string): { key: string; size: number } | undefined {
  const scope = currentScope();
  if (!scope) return undefined;
  const handle = templateHandle(key.slice(key.indexOf(":") + 1));
  const hash = templateHash(scope, handle);
  if (hash === undefined) return undefined;
  return { key: `${scope.accountId}\n${handle}\n${hash}`, size: scope.templates.get(handle)?.length ?? 0 };
}

/** How a name written in a template (`'byline'`, `/byline`) names a template handle. */
export function templateHandle(file: string): string {
  return file.replace(/^\/+/, "");
}
