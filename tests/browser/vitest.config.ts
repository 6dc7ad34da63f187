import { defineProject } from "vitest/config";

// The account dashboard in a real browser (Debian's Chromium). In the root run these start with the
// system tests (groupOrder 1), after every unit and integration project: the flow file starts a
// whole system as the system tests do. One browser per file, few files, so two workers suffice.
// One system for every file (src/harness/global-setup.ts): the first file to ask starts it, in the
// main vitest process, and it stops when the run ends; each file signs up agents of its own.
export default defineProject({
  test: {
    name: "browser",
    include: ["src/**/*.test.ts"],
    sequence: { groupOrder: 1 },
    globalSetup: ["src/harness/global-setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
