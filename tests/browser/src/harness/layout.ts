import type { Page } from "playwright-core";
import { PHONE } from "./screenshot.ts";

// Runs in the page (a string: no DOM library in the workspaces' TypeScript): how far the document
// is wider than the viewport, and the outermost elements that reach past its right edge.
const MEASURE = `(() => {
  const width = document.documentElement.clientWidth;
  const overflow = document.documentElement.scrollWidth - width;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.classList.length ? "." + [...el.classList].join(".") : "");
  const culprits = [];
  // Inside a box that clips or scrolls sideways an element is that box's business, unless it is
  // positioned out of it (absolute or fixed: a visually hidden label is the usual culprit).
  const clipped = (el) => {
    if (["absolute", "fixed"].includes(getComputedStyle(el).position)) return false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    if (el.getBoundingClientRect().right > width + 1 && !clipped(el) && !culprits.some((outer) => outer.contains(el))) culprits.push(el);
  }
  return { overflow, culprits: culprits.slice(0, 5).map((el) => name(el) + " (right edge at " + Math.round(el.getBoundingClientRect().right) + "px)") };
})()`;

/**
 * Fails when the page, at a phone's width (375x740), is wider than the screen (the reader would
 * have to scroll sideways), naming the elements that reach past the edge. A box that scrolls on
 * its own (a wide table in an `overflow-x: auto` container) is fine. The viewport is restored.
 */
export async function expectFitsPhone(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize(PHONE);
  try {
    const { overflow, culprits } = (await page.evaluate(MEASURE)) as { overflow: number; culprits: string[] };
    if (overflow > 0) {
      throw new Error(
        `${name} (${page.url()}) is ${overflow}px wider than a ${PHONE.width}px phone screen: ${culprits.join(", ") || "no element found"}`,
      );
    }
  } finally {
    if (before) await page.setViewportSize(before);
  }
}
