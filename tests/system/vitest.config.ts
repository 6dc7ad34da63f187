import { defineProject } from "vitest/config";

// The whole system as processes, through the gateway. Each file starts its own system (seven
// processes, more with replicas) on resources of its own, and in the root run only after every
// other project (groupOrder 1), so they never compete with the unit and integration tests. Two
// files run at a time (the root's two workers): a system test mostly waits (for timeouts to
// lapse, polls, sweepers), so two at once take little more than one, and kill -9 of a file's own
// processes disturbs no other file. What restarts RabbitMQ, which drops every vhost's
// connections, is another project run alone afterwards: vitest.destructive.config.ts.
export default defineProject({
  test: {
    name: "system",
    include: ["src/**/*.test.ts"],
    exclude: ["src/**/*.destructive.test.ts"],
    sequence: { groupOrder: 1 },
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
