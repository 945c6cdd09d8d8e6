// A mapping's keys must be unique, as `yaml` checks with `uniqueKeys` on: a scalar key equal to an
// earlier scalar key of the same mapping is an error at the later key. `yaml` compares each key with
// every earlier one (quadratic: a 50,000-key mapping took 43 s and more); here each mapping's keys go
// through a Set once. Without recursion (a document may nest deep), and into each node once: an alias
// is a node of its own, never followed.
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node } from "yaml";

export interface KeyError {
  code: string;
  message: string;
  pos: [number, number];
  linePos?: undefined;
}

const MESSAGE = "Map keys must be unique";

export function duplicateKeys(document: Document.Parsed): KeyError[] {
  const errors: KeyError[] = [];
  const pending: unknown[] = [document.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as Node | null;
        if (isScalar(key)) {
          if (seen.has(key.value)) {
            const start = key.range?.[0] ?? 0;
            errors.push({ code: "DUPLICATE_KEY", message: MESSAGE, pos: [start, start + 1] });
          } else seen.add(key.value);
        } else if (key && !isAlias(key)) pending.push(key);
        pending.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        if (isPair(item)) pending.push(item.key, item.value);
        else pending.push(item);
      }
    }
  }
  return errors;
}
