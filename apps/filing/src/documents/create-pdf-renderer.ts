import { createInlineRenderer, type PdfRenderer } from "./pdf-renderer.ts";
import { RenderPool, type RenderPoolOptions } from "./render-pool.ts";

export interface PdfRendererOptions extends Omit<RenderPoolOptions, "threads"> {
  /** Render threads; 0 renders inline on the event loop. */
  threads: number;
}

/**
 * The filing service's renderer: a pool of `threads` render threads, started in the background
 * (renders wait for a ready thread), or inline rendering when `threads` is 0.
 */
export function createPdfRenderer(options: PdfRendererOptions): PdfRenderer {
  if (options.threads === 0) return createInlineRenderer(options.observer);
  const pool = new RenderPool(options);
  pool.start();
  return pool;
}
