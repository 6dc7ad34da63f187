import { describe, expect, it } from "vitest";
import { compileSchema } from "./compiled-schema.ts";

const XSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="amount"><xs:simpleType><xs:restriction base="xs:decimal"><xs:fractionDigits value="2"/></xs:restriction></xs:simpleType></xs:element>
</xs:schema>`;

describe("compileSchema", () => {
  it("validates many documents with one compiled schema", async () => {
    const schema = await compileSchema(XSD, "urn:test:amount.xsd");
    expect(schema.validate("<amount>1.25</amount>")).toEqual({ valid: true, errors: [] });
    const tooPrecise = schema.validate("<amount>1.255</amount>");
    expect(tooPrecise.valid).toBe(false);
    expect(tooPrecise.errors).toEqual([expect.stringMatching(/^Schemas validity error : Element 'amount': \[facet 'fractionDigits'\]/)]);
    expect(schema.validate("<other/>").errors).toEqual([expect.stringContaining("No matching global declaration")]);
    expect(schema.validate("<amount>7</amount>")).toEqual({ valid: true, errors: [] });
  });

  it("reports a document that is not well-formed as invalid, with libxml2's parser error", async () => {
    const schema = await compileSchema(XSD, "urn:test:amount.xsd");
    const result = schema.validate("<amount>1</amoun>");
    expect(result.valid).toBe(false);
    expect(result.errors[0]).toMatch(/^parser error : .*mismatch/);
  });

  it("refuses a schema libxml2 cannot compile", async () => {
    await expect(
      compileSchema(
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="a" type="missing"/></xs:schema>',
        "urn:test:bad.xsd",
      ),
    ).rejects.toThrow();
  });
});
