import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const MODULE = fileURLToPath(new URL("./is-entry-point.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("../../", import.meta.url));

describe("isEntryPoint (real node processes)", () => {
  let dir = "";
  const node = async (script: string) =>
    (await run(process.execPath, ["--import", "tsx", join(dir, script)], { cwd: PACKAGE_DIR })).stdout.trim();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "entry-point-"));
    await writeFile(
      join(dir, "cli.ts"),
      `import { isEntryPoint } from ${JSON.stringify(MODULE)};\nconsole.log(isEntryPoint(import.meta.url) ? "entry" : "imported");\n`,
    );
    await writeFile(join(dir, "importer.ts"), `import "./cli.ts";\n`);
    await symlink(join(dir, "cli.ts"), join(dir, "linked-cli.ts"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is true for the script node was started with, also through a symlink, false when imported", async () => {
    const [direct, linked, imported] = await Promise.all([node("cli.ts"), node("linked-cli.ts"), node("importer.ts")]);
    expect({ direct, linked, imported }).toEqual({ direct: "entry", linked: "entry", imported: "imported" });
  });
});
