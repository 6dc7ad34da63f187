import type { PdfJob, SerializedRenderError } from "./pdf-jobs.ts";

/** What the pool posts to a render thread. */
export interface RenderRequest {
  id: number;
  job: PdfJob;
}

/** What a render thread posts back (render-worker.ts). */
export type RenderReply =
  | { kind: "ready"; warmUpSeconds: number }
  | { kind: "done"; id: number; pdf: ArrayBuffer; seconds: number }
  | { kind: "failed"; id: number; error: SerializedRenderError };

/** The bootstrap every render thread starts with (registers tsx, then imports the worker module). */
export const THREAD_ENTRY = new URL("./render-thread.mjs", import.meta.url);
/** The render thread's module. */
export const RENDER_WORKER_MODULE = new URL("./render-worker.ts", import.meta.url);
