// @dormant/filing/testing: for other apps' end-to-end tests, the filing service in-process with
// its peers (filing-harness.ts) and a PDF reader for content assertions.
export { startFilingHarness } from "./filing-harness.ts";
export type { FilingHarness, HarnessOptions, PeerBus, ReceivedEvent } from "./filing-harness.ts";
export { readPdf } from "./read-pdf.ts";
export type { PdfText } from "./read-pdf.ts";
