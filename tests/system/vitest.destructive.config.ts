import { defineProject } from "vitest/config";

// A real RabbitMQ restart drops every vhost's connections, other test files' included: never
// part of the root run; `npm test` runs this project on its own after the main suite
// (scripts/test.mjs), one file at a time.
export default defineProject({
  test: {
    name: "system-destructive",
    include: ["src/**/*.destructive.test.ts"],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
