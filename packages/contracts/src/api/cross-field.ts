import { CalendarDate } from "./primitives.ts";

/**
 * Cross-field rules run even when other fields already failed, so that one 400 answer lists
 * every problem at once. Such a rule sees the raw input, so it reads values defensively.
 */
export const EVEN_WHEN_OTHER_FIELDS_FAIL = { when: () => true } as const;

/** The value at `path` inside an object of unknown shape, or undefined. */
export function pick(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function isCalendarDate(value: unknown): value is string {
  return CalendarDate.safeParse(value).success;
}
