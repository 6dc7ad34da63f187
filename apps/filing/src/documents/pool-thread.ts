import { Worker } from "node:worker_threads";
import { AppError } from "@dormant/contracts";
import type { PdfJob } from "./pdf-jobs.ts";
import type { ThreadLossReason } from "./pdf-renderer.ts";
import { THREAD_ENTRY, type RenderReply, type RenderRequest } from "./render-thread-messages.ts";

/**
 * The process's node flags without its `--import` preloads: a thread would run them before any
 * loader hooks (so `tsx` and the tracing preload, a TypeScript module, fail to load there), and
 * the thread's entry registers tsx itself. Other flags (heap size, profiling) carry over.
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const flag = execArgv[index]!;
    if (flag === "--import") index++;
    else if (!flag.startsWith("--import=")) kept.push(flag);
  }
  return kept;
}

/** A render the pool accepted: queued, then given to a thread. */
export interface RenderTask {
  id: number;
  job: PdfJob;
  queuedAt: number;
  startedAt: number;
  resolve: (pdf: Buffer<ArrayBuffer>) => void;
  reject: (error: unknown) => void;
}

/** The thread rendering this PDF died: retryable (the next attempt gets a fresh thread). */
export class RenderThreadLostError extends AppError {
  constructor(reason: ThreadLossReason, cause: unknown) {
    super("INTERNAL_ERROR", `the PDF render thread was lost during this render (${reason})`, {
      retryable: true,
      retryAfterSeconds: 1,
      cause,
    });
  }
}

/** What a thread tells its pool (never again once it is lost or terminated). */
export interface PoolThreadListener {
  /** It rendered its warm-up document: it takes renders now. */
  ready(thread: PoolThread, warmUpSeconds: number): void;
  /** Its render came back (it is free again); the pool settles the task. */
  finished(thread: PoolThread, task: RenderTask, reply: Exclude<RenderReply, { kind: "ready" }>): void;
  /** It died, or did not start or render in time, and was terminated; `task` is the render it had, still to be failed. */
  lost(thread: PoolThread, reason: ThreadLossReason, cause: unknown, task: RenderTask | undefined): void;
}

/**
 * One render thread of the pool, from its start to its loss: it is started through
 * render-thread.mjs with the pool's worker module, is lost when it exits (or throws) or is not
 * ready within the start timeout or a render outlasts the render timeout, and reports each of
 * these once to its pool.
 */
export class PoolThread {
  readonly threadId: number;
  ready = false;
  task: RenderTask | undefined;
  private readonly worker: Worker;
  /** The start timeout while starting, the render timeout while rendering. */
  private timer: NodeJS.Timeout | undefined;
  /** The last uncaught error the thread reported (before its exit). */
  private error: unknown;
  /** Lost or terminated: nothing it reports any more counts. */
  private gone = false;

  constructor(
    workerModule: URL,
    startTimeoutMs: number,
    private readonly listener: PoolThreadListener,
  ) {
    this.worker = new Worker(THREAD_ENTRY, { workerData: { module: workerModule.href }, execArgv: threadExecArgv(process.execArgv) });
    this.threadId = this.worker.threadId;
    this.timer = setTimeout(
      () => this.lose("start_failed", new Error(`the render thread was not ready within ${startTimeoutMs} ms`)),
      startTimeoutMs,
    );
    this.timer.unref();
    this.worker.on("message", (reply: RenderReply) => this.onReply(reply));
    this.worker.on("error", (error) => {
      this.error = error;
    });
    this.worker.on("exit", (code) => {
      this.lose(this.ready ? "crash" : "start_failed", this.error ?? new Error(`the render thread exited with code ${code}`));
    });
  }

  /** Gives it a render; it is lost if the render takes longer than `timeoutMs`. */
  run(task: RenderTask, timeoutMs: number): void {
    task.startedAt = performance.now();
    this.task = task;
    this.timer = setTimeout(() => this.lose("timeout", new Error(`a render took longer than ${timeoutMs} ms`)), timeoutMs);
    this.worker.postMessage({ id: task.id, job: task.job } satisfies RenderRequest);
  }

  /** Whether the thread keeps the process alive (the pool: only while it has work). */
  keepAlive(referenced: boolean): void {
    if (referenced) this.worker.ref();
    else this.worker.unref();
  }

  /** Stops it for good (the pool closing): it reports nothing more. */
  terminate(): Promise<number> {
    this.gone = true;
    clearTimeout(this.timer);
    return this.worker.terminate();
  }

  private onReply(reply: RenderReply): void {
    if (this.gone) return;
    if (reply.kind === "ready") {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.ready = true;
      this.listener.ready(this, reply.warmUpSeconds);
      return;
    }
    const task = this.task;
    if (!task || task.id !== reply.id) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.task = undefined;
    this.listener.finished(this, task, reply);
  }

  /** It died, or timed out: terminate it and tell the pool, once. */
  private lose(reason: ThreadLossReason, cause: unknown): void {
    if (this.gone) return;
    this.gone = true;
    clearTimeout(this.timer);
    void this.worker.terminate();
    const task = this.task;
    this.task = undefined;
    this.listener.lost(this, reason, cause, task);
  }
}
