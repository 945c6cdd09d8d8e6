// Where a plan compiled from a shape (plan-shape.ts) holds each placeholder, and putting a request's own
// values back there. A placeholder may come out of the compiler as a whole parameter value, or as a
// whole JSON-encoded one (a value of a JSON column, a JSON filter's `equals`); one built into another
// string (a LIKE pattern) or made an object key cannot be put back, and its shape is not shared.
import { end, jsonMarker, marker, type PlanShape, sentinelDate } from "./plan-shape.ts";

type Plan = unknown;

interface Slot {
  index: number;
  /** The value goes in JSON-encoded. */
  json: boolean;
}

/** The slots under each key of a plan's object or array, down to the slots themselves. */
export type Slots = Map<string | number, Slots | Slot>;

const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
const traces = [marker, jsonMarker, escaped(marker), escaped(jsonMarker)];

/** How each string of a plan compiled from `shape` reads: a slot, plain text, or an embedded placeholder. */
function slotReader(shape: PlanShape) {
  const known = new Map<string, Slot>();
  shape.values.forEach((_value, index) => {
    known.set(`${marker}${index}${end}`, { index, json: false });
    known.set(JSON.stringify(`${marker}${index}${end}`), { index, json: true });
    known.set(JSON.stringify(`${jsonMarker}${index}${end}`), { index, json: true });
    known.set(sentinelDate(index), { index, json: false });
  });
  return (text: string): Slot | "plain" | "embedded" =>
    known.get(text) ?? (traces.some((trace) => text.includes(trace)) ? "embedded" : "plain");
}

/** Where `plan` holds each of the shape's placeholders; null when one cannot be put back. */
export function slotsOf(plan: Plan, shape: PlanShape): Slots | null {
  const read = slotReader(shape);
  let embedded = false;
  const collect = (node: unknown): Slots | Slot | null => {
    if (typeof node === "string") {
      const found = read(node);
      if (found === "embedded") embedded = true;
      return typeof found === "object" ? found : null;
    }
    if (node === null || typeof node !== "object") return null;
    const here: Slots = new Map();
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        const found = collect(child);
        if (found !== null) here.set(index, found);
      });
    } else {
      for (const key in node) {
        if (read(key) !== "plain") embedded = true;
        const found = collect((node as Record<string, unknown>)[key]);
        if (found !== null) here.set(key, found);
      }
    }
    return here.size > 0 ? here : null;
  };
  const found = collect(plan);
  if (embedded || (found !== null && !(found instanceof Map))) return null;
  return found ?? new Map();
}

/** The plan with each slot's value put in, copying only the objects on the way to a slot. */
export function fillSlots(plan: Plan, slots: Slots, values: unknown[]): Plan {
  if (slots.size === 0) return plan;
  const copy = (Array.isArray(plan) ? [...plan] : { ...(plan as object) }) as Record<
    string | number,
    unknown
  >;
  for (const [key, next] of slots) {
    copy[key] =
      next instanceof Map
        ? fillSlots(copy[key], next, values)
        : next.json
          ? JSON.stringify(values[next.index])
          : values[next.index];
  }
  return copy;
}
