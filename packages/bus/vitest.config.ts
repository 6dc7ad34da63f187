import { defineProject } from "vitest/config";

export default defineProject({
  // The files mostly wait on the broker: three workers overlap that waiting on two cores.
  test: { name: "bus", include: ["src/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: 3 },
});
