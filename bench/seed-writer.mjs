// The entry of a seed writer thread (seed-writers.ts): plain JavaScript, which then loads the TypeScript
// through tsx's API (a worker's own `--import tsx` does not apply to its entry module on Node 20).
import { register } from "tsx/esm/api";

register();
await import("./seed-writers.ts");
