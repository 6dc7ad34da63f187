// The harness's own test: real Chromium, real axe-core, against a tiny HTTP server of this file
// (and a second one on another port as the "third party"), so it needs no system and no network.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  expectAccessible,
  expectFitsPhone,
  openGuardedPage,
  requireChromium,
  screenshot,
  useBrowser,
} from "./harness/index.ts";

// As strict as the dashboard's: no inline script, nothing from elsewhere.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'";

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="stylesheet" href="/style.css"></head><body>${body}</body></html>`;
}

const STYLE = [
  "body { font-family: sans-serif; margin: 2rem; color: #1a1a1a; background: #fff; } .faint { color: #d0d0d0; }",
  ".wide { width: 600px; } .scroll { overflow-x: auto; } table { width: 100%; } td { white-space: nowrap; }",
  ".hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }",
].join("\n");
const WIDE_TABLE = `<table><tr><td>${"a wide cell ".repeat(8)}</td><td>more</td><td><span class="hidden">Actions</span></td></tr></table>`;

let thirdParty = "";
const PAGES: Record<string, () => string> = {
  "/": () =>
    html(
      "Harness page",
      `<header><nav aria-label="Main"><a href="/">Home</a></nav></header><main><h1>A page for the harness</h1>
       <form method="post" action="/"><label for="name">Key name</label><input id="name" name="name"><button type="submit">Create key</button></form></main>`,
    ),
  "/inaccessible": () =>
    html("Inaccessible page", `<main><h1>Broken</h1><img src="/pixel.svg"><input id="nameless"><p class="faint">Hard to read</p></main>`),
  "/third-party": () => html("Third-party page", `<main><h1>Tracks you</h1><img src="${thirdParty}/pixel.svg" alt=""></main>`),
  "/inline-script": () => html("Inline script", `<main><h1>Inline</h1><script>document.title = "ran";</script></main>`),
  "/too-wide": () => html("Too wide", `<main><h1>Too wide</h1><div class="wide" id="banner">600 px</div></main>`),
  "/scrolling-table": () =>
    html(
      "Scrolling table",
      `<main><h1>Table</h1><div class="scroll">${WIDE_TABLE.replace('<span class="hidden">Actions</span>', "")}</div></main>`,
    ),
  "/escaping-label": () => html("Escaping label", `<main><h1>Table</h1><div class="scroll">${WIDE_TABLE}</div></main>`),
};

const PIXEL = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>`;

function serve(): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    hits.push(path);
    // The "third party" page allows its image in the policy: the request really goes out, and the guard must catch it.
    res.setHeader("Content-Security-Policy", path === "/third-party" ? CSP.replace("img-src 'self'", `img-src 'self' ${thirdParty}`) : CSP);
    if (path === "/style.css") return void res.writeHead(200, { "content-type": "text/css" }).end(STYLE);
    if (path === "/pixel.svg") return void res.writeHead(200, { "content-type": "image/svg+xml" }).end(PIXEL);
    const page = PAGES[path];
    if (!page) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits })),
  );
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

let site: Awaited<ReturnType<typeof serve>>;
let other: Awaited<ReturnType<typeof serve>>;
let shots: string;
beforeAll(async () => {
  site = await serve();
  other = await serve();
  thirdParty = other.url;
  shots = await mkdtemp(join(tmpdir(), "browser-harness-"));
});
afterAll(async () => {
  await Promise.all([site, other].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  await rm(shots, { recursive: true, force: true });
});

const browser = useBrowser(() => site.url);

describe("browser harness", () => {
  it("drives Debian's Chromium: navigation, roles and labels, keyboard", async () => {
    const { page } = browser;
    await page.goto(`${site.url}/`);
    await expect(page.title()).resolves.toBe("Harness page");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("A page for the harness");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.type("typed by keyboard");
    await expect(page.getByLabel("Key name").inputValue()).resolves.toBe("typed by keyboard");
    expect(browser.browser.version()).toMatch(/^\d+\./);
  });

  it("injects axe-core from node_modules under a strict CSP and passes an accessible page", async () => {
    const { page } = browser;
    await page.goto(`${site.url}/`);
    await expectAccessible(page, "harness page");
    // axe came from disk, not from the network: the server saw only the page and its stylesheet.
    expect(site.hits.filter((hit) => hit !== "/" && hit !== "/style.css" && hit !== "/favicon.ico")).toEqual([]);
  });

  it("fails an inaccessible page, listing each serious or critical violation readably", async () => {
    const { page } = browser;
    await page.goto(`${site.url}/inaccessible`);
    const ids = (await axeViolations(page)).map((violation) => violation.id);
    expect(ids).toEqual(expect.arrayContaining(["image-alt", "label", "color-contrast"]));
    const error = await expectAccessible(page, "broken page").then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect(error?.message).toMatch(
      /^broken page \(http:\/\/127\.0\.0\.1:\d+\/inaccessible\): \d+ serious or critical accessibility violation/,
    );
    expect(error?.message).toContain("image-alt (critical): Images must have alternative text");
    expect(error?.message).toContain("at img");
    expect(error?.message).toContain("label (critical)");
    expect(error?.message).toContain("at #nameless");
    expect(error?.message).toContain("color-contrast (serious)");
  });

  it("writes desktop (1280x800) and phone (375 wide) PNGs", async () => {
    const { page } = browser;
    await page.goto(`${site.url}/`);
    const files = await screenshot(page, "harness", { phone: true, dir: shots });
    expect(files).toEqual([join(shots, "harness.png"), join(shots, "harness-phone.png")]);
    expect(pngSize(files[0]!)).toEqual({ width: 1280, height: 800 });
    const phone = pngSize(files[1]!);
    expect(phone.width).toBe(375);
    expect(phone.height).toBeGreaterThanOrEqual(740);
    expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
  });

  it("tells a page that fits a phone from one that scrolls sideways, naming what sticks out", async () => {
    const { page } = browser;
    for (const path of ["/", "/scrolling-table"]) {
      await page.goto(`${site.url}${path}`);
      await expectFitsPhone(page, path);
    }
    await page.goto(`${site.url}/too-wide`);
    await expect(expectFitsPhone(page, "too wide")).rejects.toThrow(
      /^too wide \(http:\/\/127\.0\.0\.1:\d+\/too-wide\) is \d+px wider than a 375px phone screen: div#banner.wide \(right edge at \d+px\)$/,
    );
    // A visually hidden label positioned out of its scrolling table: the page scrolls sideways.
    await page.goto(`${site.url}/escaping-label`);
    await expect(expectFitsPhone(page, "escaping label")).rejects.toThrow(/phone screen: span\.hidden \(right edge at \d+px\)$/);
    expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
  });

  it("catches a request to another origin, an inline script refused by the CSP, and names the browser's package when it is missing", async () => {
    const watched = await openGuardedPage(browser.browser, () => site.url);
    try {
      await watched.page.goto(`${site.url}/third-party`);
      await watched.page.waitForLoadState("networkidle");
      expect(watched.guard.foreignRequests).toEqual([`${other.url}/pixel.svg`]);
      expect(other.hits).toEqual(["/pixel.svg"]);
      await watched.page.goto(`${site.url}/inline-script`);
      await expect.poll(() => watched.guard.cspViolations.length).toBe(1);
      await expect(watched.page.title()).resolves.toBe("Inline script");
      expect(() => watched.guard.assertClean()).toThrow(
        new RegExp(`request outside ${site.url}: ${other.url}/pixel\\.svg\\n- Content-Security-Policy violation: `),
      );
    } finally {
      await watched.close();
    }
    // A prefix visited on purpose (as the payment provider's checkout is) is not a third party.
    const allowing = await openGuardedPage(
      browser.browser,
      () => site.url,
      () => [`${other.url}/pixel`],
    );
    try {
      await allowing.page.goto(`${site.url}/third-party`);
      await allowing.page.waitForLoadState("networkidle");
      expect(other.hits).toEqual(["/pixel.svg", "/pixel.svg"]);
      expect(allowing.guard.foreignRequests).toEqual([]);
    } finally {
      await allowing.close();
    }
    expect(() => requireChromium("/nonexistent/chromium")).toThrow(
      "Chromium was not found at /nonexistent/chromium: the browser tests drive the Debian package `chromium`. Install it with `sudo apt-get install -y chromium`",
    );
  });
});
