import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCt600SubmitMessage } from "../ct600/submit-message.ts";
import { GovTalkXmlError } from "../errors.ts";
import { nilReturnInput } from "../testing/ct600-input.ts";
import { hmrcTestdataPath, readHmrcTestdata } from "../testing/testdata.ts";
import { CT600_XSD_URL, validateCt600Body } from "./validate-ct600.ts";

describe("validateCt600Body", () => {
  it("ships the tax authority's CT schema unchanged", () => {
    expect(readFileSync(CT600_XSD_URL).equals(readFileSync(hmrcTestdataPath("CT-2014-v1-994.xsd")))).toBe(true);
  });

  it("accepts the authority's sample return, as a message or as the IRenvelope alone", async () => {
    const sample = readHmrcTestdata("tpvs-accepted-sample.xml");
    expect(await validateCt600Body(sample)).toEqual({ valid: true, errors: [] });
    const irenvelope = sample.slice(sample.indexOf("<IRenvelope"), sample.indexOf("</IRenvelope>") + "</IRenvelope>".length);
    expect(await validateCt600Body(irenvelope)).toEqual({ valid: true, errors: [] });
  });

  it("reports what the schema refuses", async () => {
    const { xml } = buildCt600SubmitMessage(nilReturnInput());
    const tooShort = await validateCt600Body(xml.replace("<Name>Ada Lovelace</Name>", "<Name>A</Name>"));
    expect(tooShort.valid).toBe(false);
    expect(tooShort.errors.join("\n")).toContain("Name");
    const badMoney = await validateCt600Body(xml.replace("<TaxPayable>0.00</TaxPayable>", "<TaxPayable>0</TaxPayable>"));
    expect(badMoney.valid).toBe(false);
    const missing = await validateCt600Body(xml.replace(/<Declaration>[\s\S]*<\/Declaration>/, ""));
    expect(missing.valid).toBe(false);
    expect(missing.errors.join("\n")).toContain("Missing child element");
  });

  it("validates concurrent calls independently", async () => {
    const { xml } = buildCt600SubmitMessage(nilReturnInput());
    const bad = xml.replace("<Sender>Company</Sender>", "<Sender>Nobody</Sender>");
    const results = await Promise.all([validateCt600Body(xml), validateCt600Body(bad), validateCt600Body(xml)]);
    expect(results.map((result) => result.valid)).toEqual([true, false, true]);
  });

  it("says so when there is no IRenvelope, and refuses malformed XML", async () => {
    expect(await validateCt600Body('<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><Body/></GovTalkMessage>')).toMatchObject({ valid: false });
    await expect(validateCt600Body("<IRenvelope")).rejects.toThrow(GovTalkXmlError);
  });
});
