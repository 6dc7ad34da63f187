import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { boundaryViolations, listWorkspaces, type Repo, scanImportBoundaries } from "./import-boundaries.ts";

// No workspace imports another's src/: what one workspace needs of another is a declared export
// in that workspace's package.json ("exports"), e.g. @dormant/authority-sim/testing. See
// docs/decisions.md ("Workspaces meet only through declared exports").
const root = resolve(fileURLToPath(import.meta.url), "../../../../..");

describe("workspace import boundaries", () => {
  it("no workspace imports another workspace's src/ or climbs into it by a relative path", () => {
    const { files, violations } = scanImportBoundaries(root);
    expect(files).toBeGreaterThan(500); // the whole repo was read, not an empty folder
    expect(violations).toEqual([]);
  });

  describe("the check itself", () => {
    const repo: Repo = {
      root,
      workspaces: [
        { name: "@dormant/filing", dir: join(root, "apps/filing") },
        { name: "@dormant/authority-sim", dir: join(root, "apps/authority-sim") },
        { name: "@dormant/contracts", dir: join(root, "packages/contracts") },
        { name: "@dormant/billing", dir: join(root, "apps/billing") },
      ],
    };
    const file = join(root, "apps/filing/src/submit/plan.test.ts");

    // Import lines built at run time, so that this file's own text holds no such import.
    const importing = (specifier: string) => `import { x } from "${specifier}";`;
    // Likewise for paths built from the file's own URL.
    const NEW_URL = "new URL";
    const building = (path: string) => `const path = ${NEW_URL}("${path}", import.meta.url);`;

    it("flags a deep package path into another workspace's src/", () => {
      const deep = ["@dormant/authority-sim/src/server.ts", "@dormant/contracts/src/index.ts"];
      const source = [importing(deep[0]!), `export { y } from "${deep[1]}";`].join("\n");
      expect(boundaryViolations(repo, file, source).map((violation) => violation.specifier)).toEqual(deep);
    });

    it("flags relative paths that climb into another workspace or out of every workspace, dynamic imports and mocks included", () => {
      const source = [
        importing("../../../authority-sim/src/testing/test-sim.ts"),
        `const contracts = await import("${"../../../../packages/contracts/src/index.ts"}");`,
        `vi.mock("${"../../../../scripts/lib/util.mjs"}");`,
      ].join("\n");
      expect(boundaryViolations(repo, file, source).map((violation) => violation.reason)).toEqual([
        "climbs into @dormant/authority-sim",
        "climbs into @dormant/contracts",
        "climbs out of its workspace",
      ]);
    });

    it("accepts declared exports, external packages and relative paths inside the workspace", () => {
      const source = ["@dormant/authority-sim/testing", "zod", "./plan.ts", "../test-support/harness.ts"].map(importing).join("\n");
      expect(boundaryViolations(repo, file, source)).toEqual([]);
    });

    it("flags paths built with new URL that climb into another workspace or out of every workspace", () => {
      const source = [
        building("../../../billing/prisma/migrations"),
        `const dir = fileURLToPath(${NEW_URL}(\n  '${"../../../../packages/contracts/testdata/"}',\n  import.meta.url,\n));`,
        `const fixture = (name: string) => ${NEW_URL}(\`${"../../../../scripts/fixtures/"}\${name}\`, import.meta.url);`,
        building("../../.."),
      ].join("\n");
      expect(boundaryViolations(repo, file, source).map(({ specifier, reason }) => [specifier, reason])).toEqual([
        ["../../../billing/prisma/migrations", "climbs into @dormant/billing"],
        ["../../../../packages/contracts/testdata/", "climbs into @dormant/contracts"],
        ["../../../../scripts/fixtures/", "climbs out of its workspace"],
        ["../../..", "climbs out of its workspace"],
      ]);
    });

    it("lets new URL paths, and only them, reach the repo root, infra/ and docs/", () => {
      const paths = ["../../../../", "../../../../infra/observability/", "../../../../docs/screenshots/"];
      expect(boundaryViolations(repo, file, paths.map(building).join("\n"))).toEqual([]);
      expect(boundaryViolations(repo, file, importing("../../../../infra/observability/rules.ts"))).toHaveLength(1);
    });

    it("accepts new URL paths inside the workspace and URLs not resolved from the file", () => {
      const source = [
        building("./render-worker.ts"),
        building("../../prisma/migrations"),
        `const base = ${NEW_URL}("../../../billing/x", "http://billing/");`,
      ].join("\n");
      expect(boundaryViolations(repo, file, source)).toEqual([]);
    });
  });

  it("finds every workspace of the repo", () => {
    const names = listWorkspaces(root).map((workspace) => workspace.name);
    expect(names).toEqual(expect.arrayContaining(["@dormant/gateway", "@dormant/billing", "@dormant/testing", "@dormant/system-tests"]));
  });
});
