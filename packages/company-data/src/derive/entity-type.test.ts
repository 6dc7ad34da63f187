import { describe, expect, it } from "vitest";
import { deriveEntityType, deriveRegistryCompanyType, entityTypeHasShareCapital, isSupportedEntityType } from "./entity-type.ts";

describe("deriveRegistryCompanyType", () => {
  it.each([
    ["england-wales", "00000001", "EW"],
    ["england", "00000001", "EW"],
    ["wales", "00000001", "EW"],
    ["scotland", "SC000001", "SC"],
    ["northern-ireland", "NI000001", "NI"],
    // jurisdiction wins over the number
    ["scotland", "00000009", "SC"],
    // fallback on the company number
    [undefined, "SC123456", "SC"],
    [undefined, "NI123456", "NI"],
    [undefined, "12345678", "EW"],
    ["united-kingdom", "SC123456", "SC"],
    ["european-union", "12345678", "EW"],
    // nothing tells
    [undefined, "OC123456", null],
    [undefined, "R0000123", null],
    ["noneu", "FC012345", null],
  ] as const)("jurisdiction %s, number %s -> %s", (jurisdiction, company_number, expected) => {
    const profile = jurisdiction === undefined ? { company_number } : { jurisdiction, company_number };
    expect(deriveRegistryCompanyType(profile)).toBe(expected);
  });
});

describe("deriveEntityType", () => {
  it.each([
    [
      { type: "ltd", jurisdiction: "england-wales", company_number: "00000001" },
      { entityType: "ltd", registryCompanyType: "EW" },
    ],
    [
      { type: "plc", jurisdiction: "scotland", company_number: "SC000001" },
      { entityType: "plc", registryCompanyType: "SC" },
    ],
    [
      { type: "private-limited-guarant-nsc", jurisdiction: "northern-ireland", company_number: "NI000001" },
      { entityType: "private-limited-guarant-nsc", registryCompanyType: "NI" },
    ],
    [
      { type: "llp", company_number: "OC123456" },
      { entityType: "llp", registryCompanyType: null },
    ],
  ])("%j -> %j", (profile, expected) => {
    expect(deriveEntityType(profile)).toEqual(expected);
  });
});

describe("supported entity types", () => {
  it.each([
    ["ltd", true, true],
    ["plc", true, true],
    ["private-unlimited", true, true],
    ["private-limited-shares-section-30-exemption", true, true],
    ["private-limited-guarant-nsc", true, false],
    ["private-limited-guarant-nsc-limited-exemption", true, false],
    ["private-unlimited-nsc", true, false],
    ["llp", false, true],
    ["limited-partnership", false, true],
    ["oversea-company", false, true],
    ["LTD", false, true],
    ["", false, true],
  ])("%j: supported %s, share capital %s", (code, supported, hasShareCapital) => {
    expect(isSupportedEntityType(code)).toBe(supported);
    expect(entityTypeHasShareCapital(code)).toBe(hasShareCapital);
  });
});
