import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat times (Linux: 100). */
export const TICKS_PER_SECOND = 100;

/** User + system clock ticks of `pid` so far (0 once it is gone). */
export function cpuTicksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

/** Every process whose command name is one of `names` (e.g. all postgres backends). */
function pidsNamed(names: readonly string[]): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => names.includes(commandOf(pid)));
}

export type CpuGroups = Record<string, () => number[]>;

/** The system's apps by pid, and the shared servers by command name (they also serve other work on this machine). */
export function cpuGroups(apps: Record<string, number | undefined>): CpuGroups {
  const groups: CpuGroups = {};
  for (const [name, pid] of Object.entries(apps)) groups[name] = () => (pid === undefined ? [] : [pid]);
  groups["bench client"] = () => [process.pid];
  groups.postgres = () => pidsNamed(["postgres"]);
  groups.rabbitmq = () => pidsNamed(["beam.smp"]);
  groups.redis = () => pidsNamed(["redis-server"]);
  return groups;
}

/** CPU seconds used by each group between `start()` and the returned function's call. */
export function measureCpu(groups: CpuGroups): () => Record<string, number> {
  const before = new Map<number, number>();
  for (const pids of Object.values(groups)) for (const pid of pids()) before.set(pid, cpuTicksOf(pid));
  return () =>
    Object.fromEntries(
      Object.entries(groups).map(([name, pids]) => [
        name,
        pids().reduce((sum, pid) => sum + (cpuTicksOf(pid) - (before.get(pid) ?? 0)), 0) / TICKS_PER_SECOND,
      ]),
    );
}
