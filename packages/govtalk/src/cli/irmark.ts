/**
 * `npm run --silent irmark -- FILE`: prints the base64 IRmark computed for the GovTalk message in
 * FILE (never the one written in it). FILE is resolved against the directory npm was run from.
 * Exit codes: 0 printed, 1 unreadable file or not a GovTalk message, 2 usage.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { computeIRmark } from "../irmark/compute.ts";

async function main(args: readonly string[]): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0 || file === "--help" || file === "-h") {
    process.stderr.write("usage: npm run --silent irmark -- FILE\n  prints the base64 IRmark computed for the GovTalk message in FILE\n");
    return 2;
  }
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let xml: string;
  try {
    xml = await readFile(path, "utf8");
  } catch (error) {
    process.stderr.write(`irmark: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 1;
  }
  try {
    process.stdout.write(`${computeIRmark(xml).base64}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`irmark: ${path}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
