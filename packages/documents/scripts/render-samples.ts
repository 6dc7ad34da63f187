/**
 * Renders a sample CT600 PDF and a sample dormant accounts PDF, and page 1 of each as the PNGs in
 * docs/images used by the READMEs. Needs poppler's `pdftoppm` (developer machines only:
 * `apt-get install -y poppler-utils`). Run from packages/documents:
 *   node --import tsx scripts/render-samples.ts [directory for the PDFs, default a temporary one]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { renderCt600Pdf, renderDormantAccountsPdf } from "../src/pdf/index.ts";
import { withPriorYearInput } from "../src/test-support/dormant-accounts-inputs.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const imagesDir = path.join(repoRoot, "docs/images");
const pdfDir = process.argv[2] ?? mkdtempSync(path.join(tmpdir(), "pdf-samples-"));
mkdirSync(pdfDir, { recursive: true });
mkdirSync(imagesDir, { recursive: true });

const ct600 = await renderCt600Pdf({
  companyName: "Zoë & Ørsted Holdings Ltd",
  companyNumber: "00000001",
  utr: "8596148860",
  periodStart: "2024-10-01",
  periodEnd: "2025-09-30",
  declarantName: "Ada Lovelace",
  declarantStatus: "Director",
  irmark: "YrgW02ybxWOff7gHrELynhp1gRw=",
  part: { number: 1, of: 2 },
  receipt: {
    correlationId: "8A2C0F5E9B1D4E7A9C3B5D7F1E2A4C6B",
    acceptedAt: "2026-09-29T00:33:06.257",
    message:
      "HMRC has received the HMRC-CT-CT600 document ref: 8596148860 at 00.33 on 29/09/2026. The associated IRmark was: " +
      "MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4. We strongly recommend that you keep this receipt electronically, and we advise " +
      "that you also keep your submission electronically for your records. They are evidence of the information that you " +
      "submitted to HMRC.",
  },
  generatedAt: "2026-09-29T08:15:00Z",
});

// The tests' second-year company (share capital unpaid the year before), as a Scottish company.
const accounts = await renderDormantAccountsPdf({
  ...withPriorYearInput({ companyName: "Société Générale Dormant Ltd", companyNumber: "SC000001", jurisdiction: "scotland" }),
  generatedAt: "2026-05-02T09:30:00Z",
});

for (const [name, pdf] of [
  ["ct600-pdf", ct600],
  ["accounts-pdf", accounts],
] as const) {
  const pdfPath = path.join(pdfDir, `${name}.pdf`);
  writeFileSync(pdfPath, pdf);
  const imageStem = path.join(imagesDir, `${name}-page1`);
  execFileSync("pdftoppm", ["-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", pdfPath, imageStem]);
  console.log(`${pdfPath} -> ${imageStem}.png`);
}
