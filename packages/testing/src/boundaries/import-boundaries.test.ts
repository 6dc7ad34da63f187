import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { boundaryViolations, listWorkspaces, scanImportBoundaries, type Workspace } from "./import-boundaries.ts";

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
    const workspaces: Workspace[] = [
      { name: "@dormant/filing", dir: join(root, "apps/filing") },
      { name: "@dormant/authority-sim", dir: join(root, "apps/authority-sim") },
      { name: "@dormant/contracts", dir: join(root, "packages/contracts") },
    ];
    const file = join(root, "apps/filing/src/submit/plan.test.ts");

    // Import lines built at run time, so that this file's own text holds no such import.
    const importing = (specifier: string) => `import { x } from "${specifier}";`;

    it("flags a deep package path into another workspace's src/", () => {
      const deep = ["@dormant/authority-sim/src/server.ts", "@dormant/contracts/src/index.ts"];
      const source = [importing(deep[0]!), `export { y } from "${deep[1]}";`].join("\n");
      expect(boundaryViolations(workspaces, file, source).map((violation) => violation.specifier)).toEqual(deep);
    });

    it("flags relative paths that climb into another workspace or out of every workspace, dynamic imports and mocks included", () => {
      const source = [
        importing("../../../authority-sim/src/testing/test-sim.ts"),
        `const contracts = await import("${"../../../../packages/contracts/src/index.ts"}");`,
        `vi.mock("${"../../../../scripts/lib/util.mjs"}");`,
      ].join("\n");
      expect(boundaryViolations(workspaces, file, source).map((violation) => violation.reason)).toEqual([
        "climbs into @dormant/authority-sim",
        "climbs into @dormant/contracts",
        "climbs out of its workspace",
      ]);
    });

    it("accepts declared exports, external packages and relative paths inside the workspace", () => {
      const source = ["@dormant/authority-sim/testing", "zod", "./plan.ts", "../test-support/harness.ts"].map(importing).join("\n");
      expect(boundaryViolations(workspaces, file, source)).toEqual([]);
    });
  });

  it("finds every workspace of the repo", () => {
    const names = listWorkspaces(root).map((workspace) => workspace.name);
    expect(names).toEqual(expect.arrayContaining(["@dormant/gateway", "@dormant/billing", "@dormant/testing", "@dormant/system-tests"]));
  });
});
