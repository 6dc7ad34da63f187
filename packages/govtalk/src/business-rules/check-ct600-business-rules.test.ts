import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { GovTalkXmlError } from "../errors.ts";
import { hmrcTestdataPath, readHmrcTestdata } from "../test-support/testdata.ts";
import { CT600_BUSINESS_RULES_URL, checkCt600BusinessRules } from "./check-ct600-business-rules.ts";
import { XsltprocError, XsltprocMissingError } from "./xsltproc.ts";

const sample = readHmrcTestdata("tpvs-accepted-sample.xml");
const INFO = "/hd:GovTalkMessage[1]/hd:Body[1]/ct:IRenvelope[1]/ct:CompanyTaxReturn[1]/ct:CompanyInformation[1]";

/** The sample with one text replaced (it must occur). */
function broken(from: string, to: string): string {
  expect(sample).toContain(from);
  return sample.replace(from, to);
}

describe("checkCt600BusinessRules (HMRC's CT-2014-v1-96.xslt through xsltproc)", () => {
  it.skipIf(!existsSync(hmrcTestdataPath("CT-2014-v1-96.xslt")))(
    "ships HMRC's compiled business rules byte for byte as shared/testdata has them",
    () => {
      expect(readFileSync(CT600_BUSINESS_RULES_URL).equals(readFileSync(hmrcTestdataPath("CT-2014-v1-96.xslt")))).toBe(true);
    },
  );

  it("finds no failure in HMRC's accepted sample submission", async () => {
    expect(await checkCt600BusinessRules(sample)).toEqual([]);
  });

  it("reports rule 9100 with HMRC's text and location when the Reference is not the UTR key", async () => {
    const failures = await checkCt600BusinessRules(broken("<Reference>8596148860</Reference>", "<Reference>1111111111</Reference>"));
    expect(failures).toEqual([
      {
        number: 9100,
        raisedBy: "ChRIS",
        type: "business",
        text: "There must be a Key element in the IRheader whose Type attribute is UTR and matches the tax reference in Box 3",
        location: `${INFO}/ct:Reference[1]`,
      },
    ]);
  });

  it("reports rule 9101 (and the rules that follow from it) for a period longer than 12 months", async () => {
    const failures = await checkCt600BusinessRules(broken("<To>2022-03-31</To>", "<To>2022-06-30</To>"));
    expect(failures.map((failure) => failure.number)).toContain(9101);
    expect(failures.find((failure) => failure.number === 9101)).toEqual({
      number: 9101,
      raisedBy: "ChRIS",
      type: "business",
      text: "The return period covered in Boxes 30 and 35 must not be longer than 12 months",
      location: `${INFO}/ct:PeriodCovered[1]`,
    });
  });

  it("reports rule 9349 when iXBRL accounts are attached and a reason for no accounts is given too", async () => {
    const attached = broken(
      "</Declaration>",
      "</Declaration><AttachedFiles><XBRLsubmission><Accounts><Instance><EncodedInlineXBRLDocument>PGh0bWwvPg==</EncodedInlineXBRLDocument></Instance></Accounts></XBRLsubmission></AttachedFiles>",
    );
    const failures = await checkCt600BusinessRules(attached);
    expect(failures.map((failure) => [failure.number, failure.location])).toEqual([
      [
        9349,
        "/hd:GovTalkMessage[1]/hd:Body[1]/ct:IRenvelope[1]/ct:CompanyTaxReturn[1]/ct:ReturnInfoSummary[1]/ct:Accounts[1]/ct:NoAccountsReason[1]",
      ],
    ]);
  });

  it("answers concurrent calls each with its own result", async () => {
    const texts = Array.from({ length: 8 }, (_, index) =>
      index % 2 === 0 ? sample : broken("<Reference>8596148860</Reference>", "<Reference>1111111111</Reference>"),
    );
    const results = await Promise.all(texts.map((text) => checkCt600BusinessRules(text)));
    expect(results.map((failures) => failures.map((failure) => failure.number))).toEqual(
      texts.map((_, index) => (index % 2 === 0 ? [] : [9100])),
    );
  });

  it("never blocks the event loop: the rules run in a child process", async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const cpu = process.cpuUsage();
    const results = await Promise.all(Array.from({ length: 4 }, () => checkCt600BusinessRules(sample)));
    const used = process.cpuUsage(cpu);
    delay.disable();
    expect(results).toEqual([[], [], [], []]);
    // Applying the stylesheet costs ~0.1 s of CPU per message; this process spends 3-6 ms on
    // each (the strict parse, spawning xsltproc, reading its answer). CPU time, unlike the
    // event-loop delay (kept as a loose bound), does not grow when a loaded machine makes this
    // process wait for a core, though a machine loaded many times over inflates it by half
    // (179 ms observed in CI beside other work): the bound stays well under the ~400 ms that
    // running the four in this process would cost.
    expect((used.user + used.system) / 1000).toBeLessThan(4 * 60);
    expect(delay.max / 1e6).toBeLessThan(500);
  });

  it("refuses malformed XML, a DOCTYPE and a document that is not a GovTalk message", async () => {
    await expect(checkCt600BusinessRules("<GovTalkMessage>")).rejects.toBeInstanceOf(GovTalkXmlError);
    await expect(checkCt600BusinessRules(`<!DOCTYPE x [<!ENTITY e "e">]>${sample.replace(/^<\?xml[^>]*>/, "")}`)).rejects.toBeInstanceOf(
      GovTalkXmlError,
    );
    await expect(checkCt600BusinessRules('<IRenvelope xmlns="http://www.govtalk.gov.uk/taxation/CT/5"/>')).rejects.toThrow(
      /not a GovTalk message/,
    );
  });

  it("says how to install xsltproc when it is missing", async () => {
    const failure = checkCt600BusinessRules(sample, { command: "xsltproc-not-installed-here" });
    await expect(failure).rejects.toBeInstanceOf(XsltprocMissingError);
    await expect(failure).rejects.toThrow(/apt-get install -y xsltproc/);
  });

  it("gives up after its time limit and after an abort", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xsltproc-"));
    const slow = join(dir, "slow-xsltproc");
    writeFileSync(slow, "#!/bin/sh\nexec sleep 30\n");
    chmodSync(slow, 0o755);
    await expect(checkCt600BusinessRules(sample, { command: slow, timeoutMs: 200 })).rejects.toThrow(/did not finish within 200 ms/);
    const controller = new AbortController();
    const aborted = checkCt600BusinessRules(sample, { command: slow, signal: controller.signal });
    controller.abort(new XsltprocError("stopped by the test"));
    await expect(aborted).rejects.toThrow("stopped by the test");
  });

  it("reports a failed run with xsltproc's own diagnostics", async () => {
    const dir = mkdtempSync(join(tmpdir(), "xsltproc-"));
    const failing = join(dir, "failing-xsltproc");
    writeFileSync(
      failing,
      "#!/bin/sh\ncat >/dev/null\necho 'runtime error: file x line 1' >&2\necho '<Value>secret</Value>' >&2\nexit 6\n",
    );
    chmodSync(failing, 0o755);
    const failure = checkCt600BusinessRules(sample, { command: failing });
    await expect(failure).rejects.toThrow("failed (exit 6): runtime error: file x line 1");
    await expect(failure).rejects.not.toThrow(/secret/);
  });
});
