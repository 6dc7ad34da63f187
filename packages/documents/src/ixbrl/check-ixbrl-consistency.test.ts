import { describe, expect, it } from "vitest";
import { checkIxbrlConsistency } from "./check-ixbrl-consistency.ts";
import { withPriorYearInput } from "../test-support/dormant-accounts-inputs.ts";
import { renderDormantAccountsIxbrl } from "./render-dormant-accounts.ts";

const valid = renderDormantAccountsIxbrl(withPriorYearInput());

/** `valid` with one exact substring replaced; fails when the substring is not there exactly once. */
function tamper(search: string, replacement: string): string {
  expect(valid.split(search)).toHaveLength(2);
  return valid.replace(search, replacement);
}

const DORMANT_FACT = '<ix:nonNumeric name="bus:EntityDormantTruefalse" contextRef="cur-d">true</ix:nonNumeric>';
const GBP_UNIT = '<xbrli:unit id="GBP">';

describe("checkIxbrlConsistency", () => {
  it("finds nothing wrong with a rendered document", () => {
    expect(checkIxbrlConsistency(valid).problems).toEqual([]);
  });

  it("reports XML that is not well-formed, including HTML-only entities", () => {
    expect(checkIxbrlConsistency(valid.replace("</body>", "")).problems).not.toEqual([]);
    expect(checkIxbrlConsistency(tamper("Ada Lovelace</ix:nonNumeric>", "Ada&nbsp;Lovelace</ix:nonNumeric>")).problems).toEqual([
      expect.stringMatching(/^XML (error|fatalError): .*nbsp/),
    ]);
  });

  it("reports a fact whose context or unit is not declared", () => {
    expect(checkIxbrlConsistency(tamper(DORMANT_FACT, DORMANT_FACT.replace("cur-d", "nowhere"))).problems).toEqual([
      "nonNumeric bus:EntityDormantTruefalse refers to undeclared context nowhere",
    ]);
    const undeclaredUnit = valid.replaceAll('unitRef="pure"', 'unitRef="employees"');
    expect(checkIxbrlConsistency(undeclaredUnit).problems).toEqual([
      "nonFraction core:AverageNumberEmployeesDuringPeriod refers to undeclared unit employees",
      "nonFraction core:AverageNumberEmployeesDuringPeriod refers to undeclared unit employees",
      "unit pure is declared but not used",
    ]);
  });

  it("reports contexts and units that are declared but never used", () => {
    const extraContext = tamper(
      '<xbrli:context id="cur-d">',
      '<xbrli:context id="spare"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">00000001</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2026-03-31</xbrli:instant></xbrli:period></xbrli:context><xbrli:context id="cur-d">',
    );
    expect(checkIxbrlConsistency(extraContext).problems).toEqual(["context spare is declared but not used"]);
    const extraUnit = tamper(GBP_UNIT, `<xbrli:unit id="USD"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>${GBP_UNIT}`);
    expect(checkIxbrlConsistency(extraUnit).problems).toEqual(["unit USD is declared but not used"]);
  });

  it("reports a second entity, a duplicate context id and a malformed period", () => {
    const otherEntity = valid.replace(
      /(<xbrli:context id="pri-i">\s*<xbrli:entity>\s*<xbrli:identifier scheme="[^"]*">)00000001/,
      "$100000002",
    );
    expect(checkIxbrlConsistency(otherEntity).problems).toEqual([
      "contexts name more than one entity: http://www.companieshouse.gov.uk/ 00000001, http://www.companieshouse.gov.uk/ 00000002",
    ]);
    const duplicateId = valid.replace('<xbrli:context id="pri-i">', '<xbrli:context id="cur-i">');
    expect(checkIxbrlConsistency(duplicateId).problems).toContain("context id cur-i is declared more than once");
    const badPeriod = valid.replace("<xbrli:startDate>2024-04-01</xbrli:startDate>", "<xbrli:startDate>2026-04-01</xbrli:startDate>");
    expect(checkIxbrlConsistency(badPeriod).problems).toEqual(["context pri-d ends before it starts"]);
  });

  it("reports inconsistent duplicate facts", () => {
    const duplicate = tamper(
      "</body>",
      '<p><ix:nonNumeric name="bus:EntityDormantTruefalse" contextRef="cur-d">false</ix:nonNumeric></p></body>',
    );
    expect(checkIxbrlConsistency(duplicate).problems).toEqual([
      "bus:EntityDormantTruefalse in context cur-d is reported with different values",
    ]);
  });

  it("reports values that do not match their format, missing decimals and a bad sign", () => {
    const [before, after] = valid.split('name="core:NetAssetsLiabilities" contextRef="cur-i"');
    expect(after).toBeDefined();
    const badNumber = `${before}name="core:NetAssetsLiabilities" contextRef="cur-i"${(after ?? "").replace(">100<", ">one hundred<")}`;
    expect(checkIxbrlConsistency(badNumber).problems).toEqual([
      'core:NetAssetsLiabilities (cur-i): "one hundred" does not match ixt:num-dot-decimal',
    ]);
    const noDecimals = `${before}name="core:NetAssetsLiabilities" contextRef="cur-i"${(after ?? "").replace(' decimals="0"', "")}`;
    expect(checkIxbrlConsistency(noDecimals).problems).toEqual([
      "nonFraction core:NetAssetsLiabilities needs decimals (an integer or INF)",
    ]);
    const plusSign = `${before}name="core:NetAssetsLiabilities" contextRef="cur-i"${(after ?? "").replace(' decimals="0"', ' decimals="0" sign="+"')}`;
    expect(checkIxbrlConsistency(plusSign).problems).toEqual(['nonFraction core:NetAssetsLiabilities has sign="+" (only "-" is allowed)']);
    const badDate = valid.replace(">1 May 2026<", ">May the first<");
    expect(checkIxbrlConsistency(badDate).problems).toEqual([
      'core:DateAuthorisationFinancialStatementsForIssue (cur-i): "May the first" does not match ixt:date-day-monthname-year-en',
    ]);
  });

  it("reports monetary facts that mix precision", () => {
    const mixed = valid.replace(
      /(name="core:CurrentAssets" contextRef="cur-i" unitRef="GBP") decimals="0" format="ixt:num-dot-decimal">100</,
      '$1 decimals="2" format="ixt:num-dot-decimal">100.00<',
    );
    expect(mixed).not.toBe(valid);
    expect(checkIxbrlConsistency(mixed).problems).toEqual(["monetary facts mix decimals values 0 and 2"]);
  });

  it("reports names and dimension members in undeclared namespaces", () => {
    const unbound = tamper(DORMANT_FACT, DORMANT_FACT.replace("bus:EntityDormantTruefalse", "uk-bus:EntityDormantTruefalse"));
    expect(checkIxbrlConsistency(unbound).problems).toContain(
      "nonNumeric uk-bus:EntityDormantTruefalse has a name without a declared namespace prefix",
    );
    const member = valid.replace(">bus:Micro-entities<", ">frs:Micro-entities<");
    expect(checkIxbrlConsistency(member).problems).toEqual(["dimension member frs:Micro-entities has no declared namespace prefix"]);
  });

  it("reports scripts, event handlers, a DOCTYPE and a missing schema reference", () => {
    expect(checkIxbrlConsistency(tamper("</body>", "<script>alert(1)</script></body>")).problems).toEqual([
      "the document contains a <script> element",
    ]);
    expect(checkIxbrlConsistency(tamper('<div class="page title-page">', '<div class="page title-page" onclick="x()">')).problems).toEqual([
      "<div> has an event handler attribute onclick",
    ]);
    const withDoctype = valid.replace("<html ", '<!DOCTYPE html SYSTEM "http://example.invalid/x.dtd">\n<html ');
    expect(checkIxbrlConsistency(withDoctype).problems).toContain("the document has a DOCTYPE (no DTD or external entity is allowed)");
    const noSchemaRef = valid.replace(/<link:schemaRef[^>]*><\/link:schemaRef>/, "");
    expect(checkIxbrlConsistency(noSchemaRef).problems).toEqual(["ix:references has no link:schemaRef with an xlink:href"]);
  });
});
