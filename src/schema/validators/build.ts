// Which build of the server answers: a new build may shape the same data differently (a field added,
// a template filter fixed), so its tags differ from the last one's. Every process of one build agrees.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let identity: string | undefined;

/** A hash of this module's own file: the server's bundle once built (dist/), this source file in-process. */
export function buildIdentity(): string {
  identity ??= createHash("sha256")
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest("base64url")
    .slice(0, 12);
  return identity;
}
