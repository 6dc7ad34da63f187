import { describe, expect, it } from "vitest";
import { officer, officerList } from "../test-support/registry-builders.ts";
import { deriveFirstActiveDirector } from "./first-active-director.ts";

describe("deriveFirstActiveDirector", () => {
  it.each([
    ["a single director", [officer("LOVELACE, Ada")], { name: "Ada Lovelace", appointedOn: "2022-04-14" }],
    [
      "the earliest appointed of several",
      [
        officer("BABBAGE, Charles", { appointed_on: "2023-01-09" }),
        officer("LOVELACE, Ada", { appointed_on: "2022-04-14" }),
        officer("HOPPER, Grace", { appointed_on: "2022-06-01" }),
      ],
      { name: "Ada Lovelace", appointedOn: "2022-04-14" },
    ],
    [
      "skipping a resigned earlier director",
      [
        officer("SOMERVILLE, Mary", { appointed_on: "2020-01-01", resigned_on: "2022-12-31" }),
        officer("BABBAGE, Charles", { appointed_on: "2023-01-09" }),
      ],
      { name: "Charles Babbage", appointedOn: "2023-01-09" },
    ],
    [
      "skipping secretaries and corporate directors",
      [
        officer("TABULATING SECRETARIES LIMITED", { officer_role: "corporate-secretary", appointed_on: "2019-01-01" }),
        officer("ACME DIRECTORS LIMITED", { officer_role: "corporate-director", appointed_on: "2019-01-01" }),
        officer("ACME NOMINEES LIMITED", { officer_role: "corporate-nominee-director", appointed_on: "2019-01-01" }),
        officer("KEEPER, Records", { officer_role: "secretary", appointed_on: "2019-01-01" }),
        officer("MEMBER, Llp", { officer_role: "llp-designated-member", appointed_on: "2019-01-01" }),
        officer("HOPPER, Grace", { appointed_on: "2022-06-01" }),
      ],
      { name: "Grace Hopper", appointedOn: "2022-06-01" },
    ],
    [
      "a nominee director, who is a person",
      [
        officer("HOPPER, Grace", { appointed_on: "2022-06-01" }),
        officer("NOMINEE, Nora", { officer_role: "nominee-director", appointed_on: "2021-01-01" }),
      ],
      { name: "Nora Nominee", appointedOn: "2021-01-01" },
    ],
    [
      "a pre-1992 appointment, ordered by its appointed-before date",
      [
        officer("HOPPER, Grace", { appointed_on: "1995-06-01" }),
        officer("OLD, Timer", { appointed_on: undefined, appointed_before: "1991-10-01" }),
      ],
      { name: "Timer Old", appointedOn: null },
    ],
    [
      "a director with no date at all only when nobody else is dated",
      [officer("UNDATED, Una", { appointed_on: undefined }), officer("HOPPER, Grace", { appointed_on: "2030-01-01" })],
      { name: "Grace Hopper", appointedOn: "2030-01-01" },
    ],
    [
      "the only director even without a date",
      [officer("UNDATED, Una", { appointed_on: undefined })],
      { name: "Una Undated", appointedOn: null },
    ],
    [
      "the registry's order on a tie",
      [officer("SECOND, Sam", { appointed_on: "2022-04-14" }), officer("FIRST, Fay", { appointed_on: "2022-04-14" })],
      { name: "Sam Second", appointedOn: "2022-04-14" },
    ],
    [
      "a director whose name would be empty is skipped",
      [officer(",", { appointed_on: "2020-01-01" }), officer("HOPPER, Grace", { appointed_on: "2022-06-01" })],
      { name: "Grace Hopper", appointedOn: "2022-06-01" },
    ],
    [
      "hyphen and apostrophe surnames",
      [officer("O'BRIEN-SMITH, Niamh Anne")],
      { name: "Niamh Anne O'Brien-Smith", appointedOn: "2022-04-14" },
    ],
  ])("finds %s", (_, items, expected) => {
    expect(deriveFirstActiveDirector(officerList(...items))).toEqual(expected);
  });

  it.each([
    ["no officers", []],
    ["only resigned directors", [officer("GONE, Gail", { resigned_on: "2023-01-01" })]],
    [
      "only secretaries and corporate directors",
      [
        officer("KEEPER, Records", { officer_role: "secretary" }),
        officer("ACME DIRECTORS LIMITED", { officer_role: "corporate-director" }),
      ],
    ],
  ])("gives null with %s", (_, items) => {
    expect(deriveFirstActiveDirector(officerList(...items))).toBeNull();
  });
});
