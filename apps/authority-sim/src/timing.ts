export type TimingMode = "fast" | "realistic";

export interface TimingSettings {
  mode: TimingMode;
  /** Time from a submission's acknowledgement until its outcome is ready. */
  outcomeDelayMs: number;
  /** PollInterval (seconds) the tax acknowledgement asks clients to wait between polls. */
  pollIntervalSeconds: number;
}

/** Defaults of each mode; each value can be overridden by environment or control endpoint. */
export const TIMING_PRESETS: Record<TimingMode, Omit<TimingSettings, "mode">> = {
  fast: { outcomeDelayMs: 2_000, pollIntervalSeconds: 1 },
  realistic: { outcomeDelayMs: 4 * 60_000, pollIntervalSeconds: 10 },
};

/** The timing in force; the control API changes it while the simulator runs. */
export class Timing {
  #settings: TimingSettings;

  constructor(initial: TimingSettings) {
    this.#settings = { ...initial };
  }

  get current(): TimingSettings {
    return { ...this.#settings };
  }

  /** Applies a change; choosing a mode resets the values the change does not give to its preset. */
  update(change: Partial<TimingSettings>): TimingSettings {
    const base = change.mode ? { mode: change.mode, ...TIMING_PRESETS[change.mode] } : this.#settings;
    this.#settings = {
      mode: base.mode,
      outcomeDelayMs: change.outcomeDelayMs ?? base.outcomeDelayMs,
      pollIntervalSeconds: change.pollIntervalSeconds ?? base.pollIntervalSeconds,
    };
    return this.current;
  }
}
