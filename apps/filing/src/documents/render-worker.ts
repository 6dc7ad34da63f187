// The body of a PDF render thread (started by pool-thread.ts through render-thread.mjs): renders
// one job at a time with `@dormant/documents`, whose parsed font faces stay warm in this thread,
// and transfers each PDF's bytes back.
import { parentPort } from "node:worker_threads";
import { renderPdfJob, serializeRenderError, WARM_UP_JOB } from "./pdf-jobs.ts";
import type { RenderReply, RenderRequest } from "./render-thread-messages.ts";

const port = parentPort;
if (!port) throw new Error("render-worker.ts runs as a worker thread (pool-thread.ts starts it)");

/** The PDF's bytes as an ArrayBuffer of their own, which can be transferred: pdfkit's concatenated Buffer usually is one; a view into a shared pool never is (transferring it would detach the pool). */
function ownArrayBuffer(pdf: Buffer): ArrayBuffer {
  if (pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength && pdf.buffer instanceof ArrayBuffer) return pdf.buffer;
  return new Uint8Array(pdf).buffer;
}

const post = (reply: RenderReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

// Parses the faces before the first real render; a failure here is a broken thread (the pool
// sees it exit before it was ready).
const warmUpStarted = performance.now();
await renderPdfJob(WARM_UP_JOB);
const warmUpSeconds = (performance.now() - warmUpStarted) / 1000;

port.on("message", async ({ id, job }: RenderRequest) => {
  const started = performance.now();
  try {
    const pdf = ownArrayBuffer(await renderPdfJob(job));
    post({ kind: "done", id, pdf, seconds: (performance.now() - started) / 1000 }, [pdf]);
  } catch (error) {
    post({ kind: "failed", id, error: serializeRenderError(error) });
  }
});
post({ kind: "ready", warmUpSeconds });
