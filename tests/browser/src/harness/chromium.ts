import { accessSync, constants } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * Debian's Chromium (package `chromium`): browser downloads are impossible on these machines, so
 * playwright-core drives the system's browser. `CHROMIUM_PATH` points elsewhere (e.g. a macOS
 * developer's Chrome).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Throws, naming the Debian package, when the browser is not there. */
export function requireChromium(path = CHROMIUM_PATH): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium was not found at ${path}: the browser tests drive the Debian package \`chromium\`. ` +
        "Install it with `sudo apt-get install -y chromium` (node scripts/ci-infra.mjs does it on CI, as root), " +
        "or set CHROMIUM_PATH to another Chromium or Chrome binary.",
    );
  }
}

/** One headless Chromium (the tests' contexts are isolated from each other like separate browsers). */
export async function launchChromium(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, timeout: 60_000 });
}
