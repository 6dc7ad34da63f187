import type { BrowserContext, ConsoleMessage, Request } from "playwright-core";

/** Schemes that never leave the page (no network). */
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

/**
 * Records what a browser context did that a dashboard page must not: a request to any origin
 * but the allowed one (fonts, scripts, analytics from a third party), an uncaught script error,
 * and a Content-Security-Policy violation (Chromium reports it on the console). `alsoAllowed`
 * names URL prefixes a flow visits on purpose (the payment provider's checkout after "Top up").
 */
export class PageGuard {
  readonly foreignRequests: string[] = [];
  readonly pageErrors: string[] = [];
  readonly cspViolations: string[] = [];

  constructor(
    context: BrowserContext,
    private readonly allowedOrigin: () => string,
    private readonly alsoAllowed: () => readonly string[] = () => [],
  ) {
    context.on("request", (request: Request) => this.onRequest(request.url()));
    context.on("page", (page) => {
      page.on("pageerror", (error) => this.pageErrors.push(`${page.url()}: ${error.message}`));
      page.on("console", (message: ConsoleMessage) => {
        if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
          this.cspViolations.push(`${page.url()}: ${message.text()}`);
        }
      });
      page.on("websocket", (socket) => this.onRequest(socket.url()));
    });
  }

  private onRequest(url: string): void {
    const parsed = new URL(url);
    if (LOCAL_SCHEMES.has(parsed.protocol)) return;
    if (this.alsoAllowed().some((prefix) => url.startsWith(prefix))) return;
    const origin = parsed.protocol.startsWith("ws") ? `${parsed.protocol === "wss:" ? "https:" : "http:"}//${parsed.host}` : parsed.origin;
    if (origin !== this.allowedOrigin()) this.foreignRequests.push(url);
  }

  /** Every problem seen so far, one per line (empty when none). */
  problems(): string[] {
    return [
      ...this.foreignRequests.map((url) => `request outside ${this.allowedOrigin()}: ${url}`),
      ...this.pageErrors.map((error) => `uncaught error in the page: ${error}`),
      ...this.cspViolations.map((violation) => `Content-Security-Policy violation: ${violation}`),
    ];
  }

  /** Throws listing the problems, if any. */
  assertClean(): void {
    const problems = this.problems();
    if (problems.length > 0) throw new Error(`the page did what a dashboard page must not:\n- ${problems.join("\n- ")}`);
  }
}
