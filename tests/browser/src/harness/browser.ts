import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { launchChromium } from "./chromium.ts";
import { PageGuard } from "./guard.ts";
import { DESKTOP } from "./screenshot.ts";

export interface GuardedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly guard: PageGuard;
  /** Closes the page's context (its cookies go with it). */
  close(): Promise<void>;
}

/**
 * A page in a context of its own (fresh cookies and storage, desktop size, English), watched by a
 * {@link PageGuard} that allows only `origin()` (read on each request: the origin may be known only
 * once the system started).
 */
export async function openGuardedPage(browser: Browser, origin: () => string, alsoAllowed?: () => readonly string[]): Promise<GuardedPage> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: "en-GB", timezoneId: "Europe/London" });
  const guard = new PageGuard(context, origin, alsoAllowed);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { page, context, guard, close: () => context.close() };
}

export interface BrowserFixture {
  /** The file's browser (launched in beforeAll). */
  readonly browser: Browser;
  /** The current test's page (a fresh context for each test). */
  readonly page: Page;
  /** The current test's guard: what it has seen so far. */
  readonly guard: PageGuard;
}

/**
 * For a test file: one Chromium for the file, a new page (in a context of its own) for each test,
 * and after each test a check that the page requested nothing outside `origin()`, threw no
 * uncaught error and broke no Content-Security-Policy rule. `alsoAllowed`: URL prefixes a flow
 * visits on purpose (the payment provider's checkout), see {@link PageGuard}.
 */
export function useBrowser(origin: () => string, options: { alsoAllowed?: () => readonly string[] } = {}): BrowserFixture {
  let browser: Browser | undefined;
  let current: GuardedPage | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    if (!browser) throw new Error("Chromium did not start (see the error of beforeAll)");
    current = await openGuardedPage(browser, origin, options.alsoAllowed);
  });
  afterEach(async () => {
    const ended = current;
    current = undefined;
    if (!ended) return;
    await ended.close();
    ended.guard.assertClean();
  });
  return {
    get browser() {
      if (!browser) throw new Error("no browser: useBrowser's beforeAll has not run");
      return browser;
    },
    get page() {
      if (!current) throw new Error("no page: use it inside a test");
      return current.page;
    },
    get guard() {
      if (!current) throw new Error("no page: use it inside a test");
      return current.guard;
    },
  };
}
