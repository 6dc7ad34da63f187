import { readFileSync } from "node:fs";

const PAGE = new URL("../../../testdata/hmrc/tpvs-akamai-access-denied.html", import.meta.url);
let page: string | undefined;

/**
 * The "Access Denied" HTML page HMRC's edge (Akamai) answered with HTTP 403 to a CT600 POST: a
 * real capture (testdata/hmrc/SOURCES.md). Not a GovTalk message: the request was refused at
 * the edge, before the Transaction Engine. Read once, on first use.
 */
export function hmrcEdgeAccessDeniedPage(): string {
  page ??= readFileSync(PAGE, "utf8");
  return page;
}
