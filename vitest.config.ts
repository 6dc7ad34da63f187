import { defineConfig } from "vitest/config";

// The whole suite: every app and package is a vitest project with its own config beside it.
// Two workers match the 2-core machines this runs on; tests isolate their own infrastructure.
//
// Module isolation: the apps' and packages' projects run their files without it (`isolate:
// false`): a worker loads the modules once for all the files it runs instead of once per file,
// which took 865 s of the suite's summed import time down to 143 s. Files isolate themselves by
// their own databases, vhosts and key prefixes, not by fresh modules. A file that does depend on
// fresh modules (one that mocks a module with vi.mock, or asserts what a process does once: its
// caches, its global tracer) is named `*.isolated.test.ts` and runs in the project below, one
// fresh module graph per file as vitest does by default.
export default defineConfig({
  test: {
    projects: [
      "apps/*",
      "packages/*",
      "tests/*",
      {
        test: {
          name: "isolated",
          include: ["{apps,packages}/*/src/**/*.isolated.test.ts"],
          isolate: true,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
    maxWorkers: 2,
  },
});
