import type { Logger } from "@dormant/service-kit";

const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal"]);
const noop = () => undefined;

/**
 * `logger.child(bindings)`, made only when something is written through it. A worker handles
 * every poll with a logger bound to the message (filing, submission, poll number), but most
 * polls write nothing at the levels in force (a pending answer logs at debug): creating a pino
 * child for each of them (its bindings serialised) was work thrown away. A call at a disabled
 * level is a no-op that creates nothing; anything else creates the child once and goes to it,
 * so what is written is exactly what the child would write.
 */
export function lazyChildLogger(logger: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const real = (): Logger => (child ??= logger.child(bindings));
  return new Proxy({} as Logger, {
    get(_target, property) {
      if (child === undefined && typeof property === "string" && LEVELS.has(property) && !logger.isLevelEnabled(property)) return noop;
      const target = real();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
