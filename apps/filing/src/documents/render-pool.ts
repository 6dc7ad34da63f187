import { AppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { reviveRenderError, type PdfJob } from "./pdf-jobs.ts";
import { closingError, type PdfRenderer, type RenderObserver, type ThreadLossReason } from "./pdf-renderer.ts";
import { PoolThread, RenderThreadLostError, type PoolThreadListener, type RenderTask } from "./pool-thread.ts";
import { RENDER_WORKER_MODULE, type RenderReply } from "./render-thread-messages.ts";

/**
 * PDF rendering off the event loop: a fixed pool of worker threads (each a PoolThread,
 * pool-thread.ts), each rendering one PDF at a time with its own warm fonts (`@dormant/documents`
 * parses the faces once per thread; a thread renders a warm-up document when it starts). The event loop only builds the input, posts it, and
 * takes the bytes back (the PDF's ArrayBuffer is transferred, not copied).
 *
 * - **Queue**: renders wait in one FIFO for the next free thread, at most `maxQueued` of them;
 *   beyond that a render is refused at once with a retryable 503 (the filing.documents message
 *   goes to its retry tiers, a read answers 503 with Retry-After).
 * - **A thread that dies** (uncaught error, exit, or a render longer than `renderTimeoutMs`, after
 *   which it is terminated) fails the render it had with a retryable error and is replaced at
 *   once; nothing else is lost (the queue stays). A thread that dies before it is ready is
 *   replaced after a back-off (0.5 s, doubling, at most 30 s), and while no thread is ready the
 *   waiting renders fail (retryable) instead of waiting for a start that may never succeed.
 * - **close()** takes no more renders, lets the queued and running ones finish, then terminates
 *   the threads.
 * - Threads are `unref`ed while the pool has nothing to do (nothing queued or running, nobody
 *   waiting in whenReady), so an idle pool never keeps the process alive.
 */

/** The options' defaults. Loading the modules through tsx takes a second or two on a busy machine; a minute means it is stuck. */
const DEFAULTS = { maxQueued: 64, renderTimeoutMs: 30_000, startTimeoutMs: 60_000 } as const;

/** How long a slot waits before starting a thread again after `startFailures` failed starts in a row: 0.5 s, doubling, at most 30 s. */
const restartDelayMs = (startFailures: number) => Math.min(30_000, 500 * 2 ** (startFailures - 1));

export interface RenderPoolOptions {
  /** Render threads (at least 1). */
  threads: number;
  logger: Logger;
  observer?: RenderObserver;
  /** Renders waiting for a thread, at most (default 64). */
  maxQueued?: number;
  /** A render taking longer ends its thread (default 30 s). */
  renderTimeoutMs?: number;
  /** A thread not ready after this is replaced (default 60 s). */
  startTimeoutMs?: number;
  /** The module a render thread runs (default render-worker.ts; tests give one they can crash). */
  workerModule?: URL;
}

export class RenderPool implements PdfRenderer {
  readonly mode = "thread";
  /** One entry per slot: its thread, or undefined while a replacement waits for its back-off. */
  private readonly slots: Array<PoolThread | undefined>;
  private readonly queue: RenderTask[] = [];
  private readonly maxQueued: number;
  private readonly renderTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly workerModule: URL;
  private readonly listener: PoolThreadListener = {
    ready: (thread, warmUpSeconds) => this.onReady(thread, warmUpSeconds),
    finished: (thread, task, reply) => this.onFinished(thread, task, reply),
    lost: (thread, reason, cause, task) => this.onLost(thread, reason, cause, task),
  };
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private idleWaiters: Array<() => void> = [];
  private readyWaiters: Array<() => void> = [];
  private nextId = 1;
  private startFailures = 0;
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(private readonly options: RenderPoolOptions) {
    if (!Number.isSafeInteger(options.threads) || options.threads < 1)
      throw new Error(`a render pool needs at least one thread (got ${options.threads})`);
    this.slots = Array.from({ length: options.threads }, () => undefined);
    this.maxQueued = options.maxQueued ?? DEFAULTS.maxQueued;
    this.renderTimeoutMs = options.renderTimeoutMs ?? DEFAULTS.renderTimeoutMs;
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULTS.startTimeoutMs;
    this.workerModule = options.workerModule ?? RENDER_WORKER_MODULE;
  }

  /** Starts every thread in the background (renders queue until one is ready). */
  start(): void {
    for (let slot = 0; slot < this.slots.length; slot += 1) if (!this.slots[slot]) this.spawn(slot);
  }

  /** Resolves once every thread is ready (tests and benchmarks; the service does not wait). */
  whenReady(): Promise<void> {
    if (this.slots.every((thread) => thread?.ready)) return Promise.resolve();
    return new Promise((resolve) => {
      this.readyWaiters.push(resolve);
      this.settle();
    });
  }

  /** The threadIds of the live threads. */
  threadIds(): number[] {
    return this.slots.flatMap((thread) => (thread ? [thread.threadId] : []));
  }

  pending(): { queued: number; inFlight: number } {
    return { queued: this.queue.length, inFlight: this.slots.filter((thread) => thread?.task).length };
  }

  render(job: PdfJob): Promise<Buffer<ArrayBuffer>> {
    if (this.closing) return Promise.reject(closingError());
    if (this.queue.length >= this.maxQueued) {
      return Promise.reject(
        new AppError("SERVICE_UNAVAILABLE", `PDF rendering is busy (${this.queue.length} renders waiting)`, {
          retryable: true,
          retryAfterSeconds: 1,
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, queuedAt: performance.now(), startedAt: 0, resolve, reject });
      this.dispatch();
    });
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      await new Promise<void>((resolve) => {
        this.idleWaiters.push(resolve);
        this.settle();
      });
      for (const timer of this.restartTimers) clearTimeout(timer);
      this.restartTimers.clear();
      const threads = this.slots.filter((thread): thread is PoolThread => thread !== undefined);
      this.slots.fill(undefined);
      await Promise.all(threads.map((thread) => thread.terminate()));
      for (const resolve of this.readyWaiters.splice(0)) resolve();
    })();
    return this.closed;
  }

  private spawn(slot: number): void {
    this.slots[slot] = new PoolThread(this.workerModule, this.startTimeoutMs, this.listener);
    this.settle();
  }

  private onReady(thread: PoolThread, warmUpSeconds: number): void {
    this.startFailures = 0;
    this.options.logger.debug({ thread_id: thread.threadId, warm_up_seconds: warmUpSeconds }, "PDF render thread ready");
    if (this.slots.every((t) => t?.ready)) for (const resolve of this.readyWaiters.splice(0)) resolve();
    this.dispatch(); // settles the references too
  }

  private onFinished(thread: PoolThread, task: RenderTask, reply: Exclude<RenderReply, { kind: "ready" }>): void {
    if (reply.kind === "done") {
      this.options.observer?.rendered?.(task.job.type, reply.seconds, (task.startedAt - task.queuedAt) / 1000, thread.threadId);
      task.resolve(Buffer.from(reply.pdf));
    } else {
      task.reject(reviveRenderError(reply.error));
    }
    this.dispatch();
  }

  /** Gives queued renders to free, ready threads. */
  private dispatch(): void {
    for (const thread of this.slots) {
      if (!thread?.ready || thread.task) continue;
      const task = this.queue.shift();
      if (!task) break;
      thread.run(task, this.renderTimeoutMs);
    }
    this.settle();
  }

  /** A thread died, or timed out: fail its render, replace it. */
  private onLost(thread: PoolThread, reason: ThreadLossReason, cause: unknown, task: RenderTask | undefined): void {
    const slot = this.slots.indexOf(thread);
    if (slot < 0) return;
    this.slots[slot] = undefined;
    this.options.observer?.threadLost?.(reason);
    this.options.logger.error(
      { err: cause, reason, thread_id: thread.threadId, rendering: task !== undefined },
      "PDF render thread lost; starting another",
    );
    task?.reject(new RenderThreadLostError(reason, cause));

    let delay = 0;
    if (reason === "start_failed") {
      this.startFailures += 1;
      delay = restartDelayMs(this.startFailures);
      // No thread is ready and none may ever be: the waiting renders fail now (retryable) rather
      // than wait for a start that may never succeed.
      if (!this.slots.some((t) => t?.ready)) {
        for (const queued of this.queue.splice(0)) queued.reject(new RenderThreadLostError(reason, cause));
      }
    }
    if (!this.closing || this.queue.length > 0) {
      if (delay === 0) this.spawn(slot);
      else {
        const timer = setTimeout(() => {
          this.restartTimers.delete(timer);
          if (!this.slots[slot] && (!this.closing || this.queue.length > 0)) this.spawn(slot);
          this.settle();
        }, delay);
        timer.unref();
        this.restartTimers.add(timer);
      }
    }
    this.settle();
  }

  /**
   * Keeps the threads referenced only while there is work (an idle pool does not keep the process
   * alive, a running render does), and wakes close() once nothing is queued or running.
   */
  private settle(): void {
    const busy = this.queue.length > 0 || this.slots.some((thread) => thread?.task);
    const referenced = busy || this.readyWaiters.length > 0;
    for (const thread of this.slots) thread?.keepAlive(referenced);
    if (!busy) for (const resolve of this.idleWaiters.splice(0)) resolve();
    // Closing with work queued and no thread left to do it (all lost, no restart due): fail it.
    if (busy && this.closing && this.slots.every((t) => !t) && this.restartTimers.size === 0) {
      for (const task of this.queue.splice(0)) task.reject(closingError());
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }
}
