import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";

/** Where the README's screenshots live (tests/browser/src/harness -> the repository's docs/screenshots). */
export const SCREENSHOT_DIR = fileURLToPath(new URL("../../../../docs/screenshots/", import.meta.url));

/**
 * Where a run writes its screenshots: the README's folder only when asked
 * (`UPDATE_SCREENSHOTS=1`, to refresh them on purpose), otherwise a temporary folder, so that
 * `npm test` leaves the working tree as it found it (each run's keys and ids differ).
 */
export function screenshotDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.UPDATE_SCREENSHOTS === "1" ? SCREENSHOT_DIR : join(tmpdir(), "dormant-browser-screenshots");
}

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 375, height: 740 } as const;

export interface ScreenshotOptions {
  /** Also a phone-sized one, `<name>-phone.png` (375x740), the viewport restored afterwards. */
  phone?: boolean;
  /** Another folder than `screenshotDir()` (the harness's own test writes to a temporary one). */
  dir?: string;
}

/**
 * `<dir>/<name>.png` of the page at the desktop size (1280x800) and, with `phone`, `<name>-phone.png`
 * at 375x740 (the whole page, so a long one shows how it stacks). Answers the files written.
 */
export async function screenshot(page: Page, name: string, options: ScreenshotOptions = {}): Promise<string[]> {
  const dir = options.dir ?? screenshotDir();
  mkdirSync(dir, { recursive: true });
  const before = page.viewportSize();
  const files: string[] = [];
  await page.setViewportSize(DESKTOP);
  const desktop = join(dir, `${name}.png`);
  await page.screenshot({ path: desktop, animations: "disabled", caret: "hide" });
  files.push(desktop);
  if (options.phone) {
    await page.setViewportSize(PHONE);
    const phone = join(dir, `${name}-phone.png`);
    await page.screenshot({ path: phone, fullPage: true, animations: "disabled", caret: "hide" });
    files.push(phone);
  }
  if (before) await page.setViewportSize(before);
  return files;
}
