import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { buildCt600SubmitMessage } from "../ct600/submit-message.ts";
import { GovTalkXmlError } from "../errors.ts";
import { nilReturnInput } from "../test-support/ct600-input.ts";
import { hmrcTestdataPath, readHmrcTestdata } from "../test-support/testdata.ts";
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

  it("gives each of many concurrent calls, valid and invalid mixed, its own answer", async () => {
    // Each invalid body carries a value of its own, which its answer (and only its) must quote.
    const breakages: ((xml: string, i: number) => { xml: string; quoted: string | undefined })[] = [
      (xml) => ({ xml, quoted: undefined }),
      (xml, i) => ({ xml: xml.replace("<Sender>Company</Sender>", `<Sender>Nobody${i}</Sender>`), quoted: `'Nobody${i}'` }),
      (xml, i) => ({ xml: xml.replace("<TaxPayable>0.00</TaxPayable>", `<TaxPayable>${i}.5</TaxPayable>`), quoted: `'${i}.5'` }),
      (xml, i) => ({ xml: xml.replace(/<Declaration>[\s\S]*<\/Declaration>/, `<Unknown${i}/>`), quoted: `Unknown${i}'` }),
    ];
    const cases = Array.from({ length: 64 }, (_, i) => {
      const serial = String(i).padStart(6, "0");
      const { xml } = buildCt600SubmitMessage(
        nilReturnInput({ companyNumber: `CC${serial}`, companyName: `Concurrent ${serial} Limited` }),
      );
      return breakages[i % breakages.length]!(xml, i);
    });
    const results = await Promise.all(cases.map(({ xml }) => validateCt600Body(xml)));
    results.forEach((result, i) => {
      const { quoted } = cases[i]!;
      if (quoted === undefined) {
        expect(result, `case ${i}`).toEqual({ valid: true, errors: [] });
      } else {
        expect(result.valid, `case ${i}`).toBe(false);
        expect(result.errors.join("\n"), `case ${i}`).toContain(quoted);
        const others = cases.filter((other, j) => j !== i && other.quoted !== undefined).map((other) => other.quoted!);
        expect(
          others.filter((other) => result.errors.join("\n").includes(other)),
          `case ${i}`,
        ).toEqual([]);
      }
    });
  });

  it("agrees with the xmllint command line (xmllint-wasm) on valid and invalid returns, message for message", async () => {
    const { xml } = buildCt600SubmitMessage(nilReturnInput());
    const variants = [
      xml,
      readHmrcTestdata("tpvs-accepted-sample.xml"),
      xml.replace("<Name>Ada Lovelace</Name>", "<Name>A</Name>"),
      xml.replace("<TaxPayable>0.00</TaxPayable>", "<TaxPayable>0</TaxPayable>"),
      xml.replace(/<Declaration>[\s\S]*<\/Declaration>/, ""),
      xml.replace("<Sender>Company</Sender>", "<Sender>Nobody</Sender>"),
      xml.replace("<Turnover>", "<Unexpected/><Turnover>"),
      xml.replace(/<PeriodEnd>[^<]*<\/PeriodEnd>/, "<PeriodEnd>2025-02-30</PeriodEnd>"),
    ];
    const irenvelopes = variants.map((text) =>
      text.slice(text.indexOf("<IRenvelope"), text.indexOf("</IRenvelope>") + "</IRenvelope>".length),
    );
    const reference = await validateXML({
      xml: irenvelopes.map((contents, i) => ({ fileName: `doc${i}.xml`, contents })),
      schema: [{ fileName: "CT-2014-v1-994.xsd", contents: readFileSync(CT600_XSD_URL, "utf8") }],
    });
    const ours = await Promise.all(variants.map((text) => validateCt600Body(text)));
    ours.forEach((result, i) => {
      const theirs = reference.errors.filter((error) => error.loc?.fileName === `doc${i}.xml`).map((error) => error.message);
      expect(result, `variant ${i}`).toEqual({ valid: theirs.length === 0, errors: theirs });
    });
    expect(ours.map((result) => result.valid)).toEqual([true, true, false, false, false, false, false, false]);
  });

  it("refuses a DOCTYPE before validating", async () => {
    const { xml } = buildCt600SubmitMessage(nilReturnInput());
    const withDoctype = xml.replace(
      "<GovTalkMessage",
      '<!DOCTYPE GovTalkMessage [<!ENTITY x SYSTEM "file:///etc/passwd">]><GovTalkMessage',
    );
    await expect(validateCt600Body(withDoctype)).rejects.toThrow(GovTalkXmlError);
  });

  it("says so when there is no IRenvelope, and refuses malformed XML", async () => {
    expect(await validateCt600Body('<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><Body/></GovTalkMessage>')).toMatchObject(
      { valid: false },
    );
    await expect(validateCt600Body("<IRenvelope")).rejects.toThrow(GovTalkXmlError);
  });
});
