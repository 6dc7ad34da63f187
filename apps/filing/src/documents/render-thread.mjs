// The entry of a PDF render thread (pool-thread.ts). The services run TypeScript through tsx
// (`node --import tsx`), but on Node 20 a worker thread does not inherit the loader hooks of
// `--import`, and under vitest the parent process has none: unless this thread already loads
// TypeScript (a Node whose workers inherit the hooks), it registers tsx itself, then imports the
// render module the pool names (`workerData.module`, an absolute file URL).
import { workerData } from "node:worker_threads";

async function loadsTypeScript() {
  try {
    // A module of its own: a failed load is cached per URL, so never probe with the real one.
    await import("./render-thread-probe.ts");
    return true;
  } catch (error) {
    if (error?.code === "ERR_UNKNOWN_FILE_EXTENSION") return false;
    throw error;
  }
}

if (!(await loadsTypeScript())) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(new URL(workerData.module).href);
