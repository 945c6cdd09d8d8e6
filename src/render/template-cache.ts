// Parsed templates reused across requests. liquidjs asks its cache for `<lookup type>:<handle>`; the
// entry is found under the render's account, the handle and the content hash of the template's current
// source, so an edited template is parsed again on its next request (and the old parse ages out), and
// one account's parse is never another's. Least recently used entries go first past a count or a total
// source size; a parse whose source alone exceeds the size is not kept.
import type { Template } from "liquidjs";
import { LRUCache } from "lru-cache";
import { currentScope, templateHash } from "./render-scope.ts";

type Parsed = Template[] | Promise<Template[]>;

/** liquidjs's `cache` option (its LiquidCache interface). */
export class ParsedTemplateCache {
  private readonly entries: LRUCache<string, { parsed: Parsed; size: number }>;

  /** `finish` completes each fresh parse before any render uses it (liquidjs writes a parse here first). */
  constructor(
    maxEntries = 2_000,
    maxSourceChars = 64 * 1024 * 1024,
    private readonly finish: (templates: Template[]) => void = () => {},
  ) {
    this.entries = new LRUCache({
      max: maxEntries,
      maxSize: maxSourceChars,
      // lru-cache counts every entry at least 1: an empty template's parse still takes room.
      sizeCalculation: (entry) => Math.max(1, entry.size),
    });
  }

  read(key: string): Parsed | undefined {
    const versioned = versionedKey(key);
    return versioned && this.entries.get(versioned.key)?.parsed;
  }

  write(key: string, parsed: Parsed): void {
    // Every parse is finished, kept or not (a partial the account lacks is parsed from its name each time).
    // A promise's callbacks run in the order they were added: this one before the render's own.
    if (Array.isArray(parsed)) this.finish(parsed);
    else void parsed.then(this.finish, () => {});
    const versioned = versionedKey(key);
    if (!versioned) return;
    this.entries.set(versioned.key, { parsed, size: versioned.size });
  }

  remove(key: string): void {
    const versioned = versionedKey(key);
    if (versioned) this.entries.delete(versioned.key);
  }

  /** How many parses are kept and how much source they stand for. */
  stats(): { entries: number; sourceChars: number } {
    let sourceChars = 0;
    for (const entry of this.entries.values()) sourceChars += entry.size;
    return { entries: this.entries.size, sourceChars };
  }

  clear(): void {
    this.entries.clear();
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
