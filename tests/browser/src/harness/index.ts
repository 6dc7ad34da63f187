export { axeViolations, expectAccessible, formatViolations, type AxeViolation } from "./axe.ts";
export { type BrowserFixture, type GuardedPage, openGuardedPage, useBrowser } from "./browser.ts";
export { CHROMIUM_PATH, launchChromium, requireChromium } from "./chromium.ts";
export { PageGuard } from "./guard.ts";
export { expectFitsPhone } from "./layout.ts";
export { DESKTOP, PHONE, SCREENSHOT_DIR, screenshot, screenshotDir, type ScreenshotOptions } from "./screenshot.ts";
export { type SharedSystem, sharedSystem } from "./shared-system.ts";
