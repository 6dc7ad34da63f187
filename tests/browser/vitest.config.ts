import { defineProject } from "vitest/config";

// The account dashboard in a real browser (Debian's Chromium). In the root run these start with the
// system tests (groupOrder 1), after every unit and integration project: the flow file starts a
// whole system as the system tests do. One browser per file, few files, so two workers suffice.
export default defineProject({
  test: {
    name: "browser",
    include: ["src/**/*.test.ts"],
    sequence: { groupOrder: 1 },
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
