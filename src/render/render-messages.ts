// What the main thread and a render worker (render-pool.ts, render-worker.ts) tell each other.
import type { EntryList, EntryListArgs } from "./site-data.ts";
import type { SiteRenderJob, SiteRenderResult } from "./site-render.ts";

/** To a worker: render a page, or the answer to one of its list reads. */
export type ToWorker =
  | { type: "render"; id: number; job: SiteRenderJob }
  | { type: "entries"; call: number; list: EntryList | null }
  | { type: "entries"; call: number; error: string };

/** From a worker: a list its render needs, or how the render ended. */
export type FromWorker =
  | { type: "entries"; id: number; call: number; args: EntryListArgs }
  | { type: "rendered"; id: number; result: SiteRenderResult }
  | { type: "failed"; id: number; message: string };
