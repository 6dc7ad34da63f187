import { describe, expect, it } from "vitest";
import { readIxbrl, shiftDecimal } from "./read-ixbrl.ts";
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

  it("reports a format from another transformation registry instead of guessing", () => {
    const reading = readIxbrl(
      document(
        '<ix:nonFraction name="core:Equity" contextRef="c" unitRef="GBP" decimals="0" format="ixt:numdotdecimal">100</ix:nonFraction>',
        "http://www.xbrl.org/inlineXBRL/transformation/2015-02-26",
      ),
    );
    expect(reading.problems).toEqual([`core:Equity (c): format ixt:numdotdecimal is not in the transformation registry ${NS.ixt}`]);
    expect(reading.facts[0]?.value).toBeUndefined();
  });

  it("moves decimal points either way", () => {
    expect(shiftDecimal("1.5", 2)).toBe("150");
    expect(shiftDecimal("150", -2)).toBe("1.5");
    expect(shiftDecimal("7", -3)).toBe("0.007");
    expect(shiftDecimal("0.000", 0)).toBe("0");
  });
});
