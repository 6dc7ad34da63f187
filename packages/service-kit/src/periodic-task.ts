import type { Logger } from "./logger.ts";

/**
 * Runs a task over and over: again at once when it says there is more to do, else after
 * `intervalMs` or as soon as someone calls wake(). One run at a time; stop() waits for the run
 * in progress. A failing run is logged and the next one comes after the interval.
 */
export class PeriodicTask {
  private running: Promise<void> | undefined;
  private stopping = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly task: () => Promise<boolean>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.running;
    this.running = undefined;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let more = false;
      this.woken = false;
      try {
        more = await this.task();
      } catch (error) {
        this.logger.warn({ err: error, task: this.name }, "periodic task failed; trying again later");
      }
      if (more || this.woken || this.stopping) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.intervalMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }
}
