import { AppError } from "@dormant/contracts";
import { threadId } from "node:worker_threads";
import { renderPdfJob, type PdfJob } from "./pdf-jobs.ts";

/** Why a render thread was replaced. */
export type ThreadLossReason =
  /** It exited or threw outside a render's own error handling (the render in flight fails). */
  | "crash"
  /** A render took longer than the render timeout: the thread was terminated. */
  | "timeout"
  /** It ended before it was ready (broken start: module loading, warm-up). */
  | "start_failed";

/** What the renderer reports (the service turns it into metrics). */
export interface RenderObserver {
  /** One PDF rendered: how long the rendering took, how long it waited for a thread, and which thread rendered it. */
  rendered?(type: PdfJob["type"], renderSeconds: number, waitSeconds: number, threadId: number): void;
  /** A render thread was lost and replaced. */
  threadLost?(reason: ThreadLossReason): void;
}

/** Renders PDFs for the documents code: on render threads (the service's default) or inline. */
export interface PdfRenderer {
  /** `thread`: a worker_threads pool; `inline`: on the calling event loop. */
  readonly mode: "thread" | "inline";
  /**
   * Renders one PDF. Rejects with the input's PdfInputError / DormantAccountsInputError (as if
   * rendered here), or with a retryable error when it could not be rendered now: the queue is
   * full, the renderer is closing, or the render thread died or timed out during this render.
   */
  render(job: PdfJob): Promise<Buffer<ArrayBuffer>>;
  /** Renders waiting for a thread, and renders under way. */
  pending(): { queued: number; inFlight: number };
  /** Takes no more renders, waits for those accepted (queued and in flight), then stops its threads. */
  close(): Promise<void>;
}

/** The renderer is shutting down: a retryable error (the message goes to the retry tiers). */
export function closingError(): AppError {
  return new AppError("SERVICE_UNAVAILABLE", "PDF rendering is shutting down", { retryable: true, retryAfterSeconds: 5 });
}

/** Renders on the calling thread (FILING_DOCUMENT_RENDER_THREADS=0): every render blocks the event loop. */
export function createInlineRenderer(observer: RenderObserver = {}): PdfRenderer {
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;
  return {
    mode: "inline",
    render(job) {
      if (closing) return Promise.reject(closingError());
      const started = performance.now();
      const rendering = renderPdfJob(job).then((pdf) => {
        observer.rendered?.(job.type, (performance.now() - started) / 1000, 0, threadId);
        // A Buffer over its own ArrayBuffer (pdfkit's concatenation): no copy.
        return (
          pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength && pdf.buffer instanceof ArrayBuffer ? pdf : Buffer.from(pdf)
        ) as Buffer<ArrayBuffer>;
      });
      const tracked = rendering.catch(() => undefined).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      return rendering;
    },
    pending: () => ({ queued: 0, inFlight: inFlight.size }),
    async close() {
      closing = true;
      await Promise.all([...inFlight]);
    },
  };
}
