import { describe, expect, it } from "vitest";
import { LEGACY_IXT, readIxbrl, shiftDecimal } from "./read-ixbrl.ts";
import { NS } from "./taxonomy.ts";

function document(body: string, ixtNamespace: string = NS.ixt): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="${NS.xhtml}" xmlns:ix="${NS.ix}" xmlns:ixt="${ixtNamespace}" xmlns:xbrli="${NS.xbrli}" xmlns:core="${NS.core}">
<body>${body}</body></html>`;
}

describe("readIxbrl", () => {
  it("applies scale and sign, and leaves ix:exclude content out of a value", () => {
    const reading = readIxbrl(
      document(
        '<ix:nonFraction name="core:Equity" contextRef="c" unitRef="GBP" decimals="-3" scale="3" sign="-" format="ixt:num-dot-decimal">1,234.5</ix:nonFraction>' +
          '<ix:nonNumeric name="core:Note" contextRef="c">Kept<ix:exclude> dropped</ix:exclude> text</ix:nonNumeric>',
      ),
    );
    expect(reading.problems).toEqual([]);
    expect(reading.facts.map((fact) => [fact.name, fact.value])).toEqual([
      ["core:Note", "Kept text"],
      ["core:Equity", "-1234500"],
    ]);
  });

  it("reports a format from an unknown transformation registry, or one it does not support, instead of guessing", () => {
    const unknown = readIxbrl(
      document(
        '<ix:nonFraction name="core:Equity" contextRef="c" unitRef="GBP" decimals="0" format="ixt:numdotdecimal">100</ix:nonFraction>',
        "http://example.com/transformation",
      ),
    );
    expect(unknown.problems).toEqual([
      "core:Equity (c): format ixt:numdotdecimal is not in a transformation registry this reader knows (http://example.com/transformation)",
    ]);
    expect(unknown.facts[0]?.value).toBeUndefined();
    const unsupported = readIxbrl(
      document(
        '<ix:nonFraction name="core:Equity" contextRef="c" unitRef="GBP" decimals="0" format="ixt:numcommadecimal">1.234,5</ix:nonFraction>',
        LEGACY_IXT.tr3,
      ),
    );
    expect(unsupported.problems).toEqual(["core:Equity (c): format ixt:numcommadecimal is not supported by this reader"]);
  });

  it("reads the registry 1-3 formats of accepted accounts", () => {
    const facts = (namespace: string, body: string) => readIxbrl(document(body, namespace));
    const tr3 = facts(
      LEGACY_IXT.tr3,
      '<ix:nonNumeric name="bus:D" contextRef="c" format="ixt:datedaymonthyearen">31 March 2026</ix:nonNumeric>' +
        '<ix:nonFraction name="core:A" contextRef="c" unitRef="GBP" decimals="0" format="ixt:numdotdecimal">1,234</ix:nonFraction>' +
        '<ix:nonFraction name="core:Z" contextRef="c" unitRef="GBP" decimals="0" format="ixt:zerodash">-</ix:nonFraction>' +
        '<ix:nonNumeric name="bus:B" contextRef="c" format="ixt:booleanfalse">false</ix:nonNumeric>',
    );
    expect(tr3.problems).toEqual([]);
    expect(tr3.facts.map((fact) => fact.value)).toEqual(["2026-03-31", "false", "1234", "0"]);
    const tr1 = facts(
      LEGACY_IXT.tr1,
      '<ix:nonNumeric name="bus:D" contextRef="c" format="ixt:datelonguk">31 January 2026</ix:nonNumeric>' +
        '<ix:nonFraction name="core:A" contextRef="c" unitRef="GBP" decimals="0" format="ixt:numcommadot">2,547</ix:nonFraction>',
    );
    expect(tr1.problems).toEqual([]);
    expect(tr1.facts.map((fact) => fact.value)).toEqual(["2026-01-31", "2547"]);
  });

  it("moves decimal points either way", () => {
    expect(shiftDecimal("1.5", 2)).toBe("150");
    expect(shiftDecimal("150", -2)).toBe("1.5");
    expect(shiftDecimal("7", -3)).toBe("0.007");
    expect(shiftDecimal("0.000", 0)).toBe("0");
  });
});
