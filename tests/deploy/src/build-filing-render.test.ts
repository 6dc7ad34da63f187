import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, installedPackages } from "./support/built-app.ts";

const run = promisify(execFile);

// The filing service renders PDFs on worker threads whose entry (render-thread.mjs) loads the
// render module by a URL it builds itself: under tsx it registers tsx in the thread, in the
// build there is no tsx to register, so the compiled module must be found as it is.
const RENDER_ONE_PDF = `
import { RenderPool } from "./src/documents/render-pool.js";
import { WARM_UP_JOB } from "./src/documents/pdf-jobs.js";
const logger = { debug() {}, info() {}, warn() {}, error: console.error, child: () => logger };
const pool = new RenderPool({ threads: 1, logger });
pool.start();
const pdf = Buffer.from(await pool.render(WARM_UP_JOB));
await pool.close();
process.stdout.write(pdf.subarray(0, 5).toString("latin1") + " " + pdf.length);
`;

describe("the production build of the filing service", () => {
  const out = join(mkdtempSync(join(tmpdir(), "dormant-build-")), "filing");

  beforeAll(() => buildApp("filing", out), 240_000);
  afterAll(() => rmSync(join(out, ".."), { recursive: true, force: true }));

  it("renders a PDF on a render thread under plain node, without tsx", async () => {
    expect(installedPackages(out)).not.toContain("tsx");
    // A file of the tree (written beside it, new): a worker thread inherits `-e`'s flags and fails.
    writeFileSync(join(out, "render-one-pdf.mjs"), RENDER_ONE_PDF);
    const { stdout } = await run(process.execPath, ["render-one-pdf.mjs"], {
      cwd: out,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
      timeout: 60_000,
    });
    const [magic, bytes] = stdout.split(" ");
    expect(magic).toBe("%PDF-");
    expect(Number(bytes)).toBeGreaterThan(10_000);
  }, 90_000);
});
