// A render thread for the pool's tests: the real one (documents/render-worker.ts), which also dies or hangs
// on purpose when a job's `generatedAt` names a failure day, right after the real render started:
//   2099-01-01 → process.exit (the thread ends), 2099-01-02 → an uncaught error,
//   2099-01-03 → a render that never ends (a busy loop).
import { parentPort } from "node:worker_threads";
import type { RenderRequest } from "../documents/render-thread-messages.ts";
import "../documents/render-worker.ts";

parentPort?.on("message", ({ job }: RenderRequest) => {
  const day = job.input.generatedAt.slice(0, 10);
  if (day === "2099-01-01") process.exit(70);
  if (day === "2099-01-02") throw new Error("the render thread blew up");
  if (day === "2099-01-03") for (;;);
});
