import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** The repository root (packages/govtalk/src/test-support -> repo). */
export const repoRoot = resolve(import.meta.dirname, "../../../..");

/** Path of a file in the tax authority's test data, beside the repository. */
export function hmrcTestdataPath(name: string): string {
  return resolve(repoRoot, "../shared/testdata/hmrc", name);
}

/** Text of a file in the tax authority's test data. */
export function readHmrcTestdata(name: string): string {
  return readFileSync(hmrcTestdataPath(name), "utf8");
}
