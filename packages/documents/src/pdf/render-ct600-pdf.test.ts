import { describe, expect, it } from "vitest";
import { PdfInputError } from "./pdf-input-error.ts";
import { occurrences, readPdf } from "../test-support/read-pdf.ts";
import { renderCt600Pdf } from "./render-ct600-pdf.ts";
import type { Ct600PdfInput } from "./pdf-inputs.ts";

const RECEIPT_MESSAGE =
  "HMRC has received the HMRC-CT-CT600 document ref: 8596148860 at 00.33 on 29/09/2026. The associated IRmark was: " +
  "MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4. We strongly recommend that you keep this receipt electronically.";

function acceptedReturn(overrides: Partial<Ct600PdfInput> = {}): Ct600PdfInput {
  return {
    companyName: "Société Générale & <Ørsted> Zoë Ltd",
    companyNumber: "SC000001",
    utr: "8596148860",
    periodStart: "2024-10-01",
    periodEnd: "2025-09-30",
    declarantName: "Zoë Ørsted-Smith",
    declarantStatus: "Director",
    irmark: "YrgW02ybxWOff7gHrELynhp1gRw=",
    part: { number: 1, of: 2 },
    receipt: {
      correlationId: "8A2C0F5E9B1D4E7A9C3B5D7F1E2A4C6B",
      acceptedAt: "2026-09-29T00:33:06.257",
      message: RECEIPT_MESSAGE,
    },
    generatedAt: "2026-09-29T08:15:00Z",
    ...overrides,
  };
}

describe("renderCt600Pdf", () => {
  it("shows the return as filed on page 1 and the submission record on page 2", async () => {
    const pdf = await readPdf(await renderCt600Pdf(acceptedReturn()));

    expect(pdf.pages).toHaveLength(2);
    const [returnPage = "", receiptPage = ""] = pdf.pages;
    expect(returnPage).toContain("Company name Société Générale & <Ørsted> Zoë Ltd");
    expect(returnPage).toContain("Company registration number SC000001");
    expect(returnPage).toContain("Unique Taxpayer Reference (UTR) 8596148860");
    expect(returnPage).toContain("from 1 October 2024 to 30 September 2025");
    expect(returnPage).toContain("Type of return New return");
    expect(returnPage).toContain("Part 1 of 2");
    expect(returnPage).toContain("Accounts Not attached. Reason: Company dormant");
    expect(returnPage).toContain("Computations Not attached. Reason: Company dormant");
    expect(returnPage).toContain("Turnover: total turnover from trade 0.00");
    expect(returnPage).toContain("Profits chargeable to Corporation Tax 0.00");
    expect(returnPage).toContain("Corporation Tax chargeable 0.00");
    expect(returnPage).toContain("Tax payable 0.00");
    expect(returnPage).toContain("correct and complete to the best of my knowledge and belief");
    expect(returnPage).toContain("Declaration accepted Yes Name Zoë Ørsted-Smith Status Director");
    expect(returnPage).toContain("Accepted by HMRC on 29 September 2026 at 00:33:06");

    expect(receiptPage).toContain("IRmark (base64, as filed) YrgW02ybxWOff7gHrELynhp1gRw=");
    expect(receiptPage).toContain("IRmark (base32, as on the receipt) MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4");
    expect(receiptPage).toContain("Correlation ID 8A2C0F5E9B1D4E7A9C3B5D7F1E2A4C6B");
    expect(receiptPage).toContain("Accepted by HMRC 29 September 2026 at 00:33:06");
    expect(receiptPage).toContain(RECEIPT_MESSAGE);

    expect(returnPage).toContain("Page 1 of 2");
    expect(receiptPage).toContain("Page 2 of 2");
    expect(receiptPage).toContain("Generated 29 September 2026 at 08:15:00 UTC by Dormant filing platform");
    expect(pdf.text).not.toContain("SANDBOX");
  });

  it("carries the document information and a creation date taken from generatedAt", async () => {
    const { info } = await readPdf(await renderCt600Pdf(acceptedReturn({ generatedAt: "2026-09-29T09:15:00+01:00" })));

    expect(info.Title).toBe(
      "CT600 Company Tax Return: Société Générale & <Ørsted> Zoë Ltd (SC000001), 1 October 2024 to 30 September 2025 (part 1 of 2)",
    );
    expect(info.Author).toBe("Dormant filing platform");
    expect(info.Subject).toBe("Nil Company Tax Return (CT600) of a dormant company");
    expect(info.CreationDate).toBe("D:20260929081500Z");
  });

  it("gives the same bytes for the same input", async () => {
    const first = await renderCt600Pdf(acceptedReturn());
    const second = await renderCt600Pdf(acceptedReturn());

    expect(first.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(second.equals(first)).toBe(true);
  });

  it("marks every page of a sandbox return SANDBOX — NOT FILED", async () => {
    const pdf = await readPdf(await renderCt600Pdf(acceptedReturn({ sandbox: true, receipt: undefined })));

    expect(pdf.pages).toHaveLength(2);
    for (const page of pdf.pages) {
      expect(page).toContain("SANDBOX — NOT FILED");
      expect(page).toContain("Sandbox mode: this return was not sent to HMRC.");
    }
    expect(pdf.pages[0]).toContain("Sandbox: not filed with HMRC");
    expect(pdf.text).not.toContain("Accepted by HMRC");
  });

  it("renders a return without receipt or split, and an amendment", async () => {
    const pdf = await readPdf(
      await renderCt600Pdf(acceptedReturn({ receipt: undefined, part: undefined, returnType: "amended", companyName: "Plain Name Ltd" })),
    );

    expect(pdf.pages).toHaveLength(2);
    expect(pdf.text).toContain("Type of return Amended return");
    expect(pdf.text).toContain("Submitted to HMRC: no acceptance recorded yet");
    expect(pdf.text).toContain("No receipt message from HMRC is recorded for this return.");
    expect(pdf.text).toContain("IRmark (base32, as on the receipt) MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4");
    expect(pdf.text).not.toContain("Correlation ID");
    expect(pdf.text).not.toContain("Part 1 of 2");
    expect(occurrences(pdf.text, "0.00")).toBe(4);
  });

  it("keeps every character of a long name with Welsh and other non-ASCII letters", async () => {
    const name = "Cwmni Ŵyr a Ŷd Cyfyngedig — Łódź Øresund Zoë Société Générale Holdings (Number Two Hundred And Five) Ltd";
    const pdf = await readPdf(await renderCt600Pdf(acceptedReturn({ companyName: name })));

    expect(pdf.pages[0]).toContain(`Company name ${name}`);
  });

  it("rejects input it cannot render, naming every problem", async () => {
    const bad = acceptedReturn({
      utr: "85961",
      irmark: "not-an-irmark",
      periodStart: "2025-10-01",
      periodEnd: "2025-09-30",
      generatedAt: "2026-09-29T08:15:00",
      part: { number: 3, of: 2 },
      receipt: { acceptedAt: "yesterday" },
    });

    const error = await renderCt600Pdf(bad).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PdfInputError);
    expect((error as PdfInputError).problems).toEqual([
      "generatedAt must be an ISO 8601 date-time with Z or a UTC offset",
      "utr must be 10 digits",
      "periodEnd must not be before periodStart",
      "irmark must be the base64 SHA-1 digest (28 characters)",
      "part must be { number, of } with 1 <= number <= of and of >= 2",
      "receipt.acceptedAt must be an ISO 8601 date-time",
    ]);
  });
});
