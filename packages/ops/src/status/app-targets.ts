import type { DiscoveredApp } from "@dormant/service-kit";

/** An app whose ops endpoints (/readyz, /metrics) the operator's view reads. */
export interface AppTarget {
  name: string;
  /** Base URL of its ops endpoints, e.g. http://127.0.0.1:4301. */
  url: string;
}

/**
 * The apps to read: OPS_URLS (`name=url,name=url`: where they run, e.g. in production; the whole
 * list) when set, else every app the root admin CLI discovered with its default ops port on this
 * machine (what `npm start` runs). Throws on a malformed OPS_URLS.
 */
export function appTargets(apps: readonly DiscoveredApp[], opsUrls: string | undefined): AppTarget[] {
  if (opsUrls !== undefined && opsUrls.trim() !== "") {
    return opsUrls
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
      .map((entry) => {
        const at = entry.indexOf("=");
        const name = entry.slice(0, at).trim();
        const url = entry.slice(at + 1).trim();
        if (at <= 0 || !URL.canParse(url)) throw new Error(`OPS_URLS: "${entry}" is not name=url`);
        return { name, url: url.replace(/\/+$/, "") };
      });
  }
  return apps
    .filter((app): app is DiscoveredApp & { opsPort: number } => typeof app.opsPort === "number")
    .map((app) => ({ name: app.name, url: `http://127.0.0.1:${app.opsPort}` }));
}
