import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatOfficerName } from "./officer-name.ts";

describe("formatOfficerName", () => {
  it.each([
    ["LOVELACE, Ada", "Ada Lovelace"],
    ["LOVELACE, Augusta Ada", "Augusta Ada Lovelace"],
    ["BABBAGE, Charles", "Charles Babbage"],
    ["O'BRIEN, Niamh", "Niamh O'Brien"],
    ["O’BRIEN, Niamh", "Niamh O’Brien"],
    ["SMITH-JONES, Anna Maria", "Anna Maria Smith-Jones"],
    ["D'ARCY-SMITH, Fitzwilliam", "Fitzwilliam D'Arcy-Smith"],
    ["VAN DER BERG, Pieter", "Pieter Van Der Berg"],
    ["MCDONALD, Ronald", "Ronald Mcdonald"],
    ["ÅSTRÖM, Göran", "Göran Åström"],
    ["ST. JOHN, Oliver", "Oliver St. John"],
    // forenames kept as given
    ["LOVELACE, ADA", "ADA Lovelace"],
    ["LOVELACE, ada", "ada Lovelace"],
    ["SMITH, Dr John", "Dr John Smith"],
    // a surname already in mixed case is kept
    ["McDonald, Ronald", "Ronald McDonald"],
    ["de Souza, Maria", "Maria de Souza"],
    // extra comma-separated parts (titles, honours) are dropped
    ["DYSON, James, Sir", "James Dyson"],
    ["SMITH, John, OBE, Dr", "John Smith"],
    // whitespace
    ["  LOVELACE ,   Augusta    Ada  ", "Augusta Ada Lovelace"],
    ["LOVELACE,Ada", "Ada Lovelace"],
    // missing parts
    ["LOVELACE,", "Lovelace"],
    ["LOVELACE, ", "Lovelace"],
    [", Ada", "Ada"],
    [",", ""],
    ["", ""],
    // no comma: kept as given
    ["Ada Lovelace", "Ada Lovelace"],
    ["LOVELACE", "LOVELACE"],
    ["ACME  NOMINEES LIMITED", "ACME NOMINEES LIMITED"],
  ])("%j -> %j", (registryName, name) => {
    expect(formatOfficerName(registryName)).toBe(name);
  });

  const word = fc.stringMatching(/^[A-Z][A-Z'-]{0,10}[A-Z]$/);
  const forename = fc.stringMatching(/^[A-Z][a-z]{1,10}$/);

  it("puts the forenames first and keeps every letter of both parts", () => {
    fc.assert(
      fc.property(word, fc.array(forename, { minLength: 1, maxLength: 3 }), (surname, forenames) => {
        const given = forenames.join(" ");
        const name = formatOfficerName(`${surname}, ${given}`);
        return (
          name.startsWith(`${given} `) &&
          name.slice(given.length + 1).toUpperCase() === surname &&
          name.slice(given.length + 1, given.length + 2) === surname.slice(0, 1)
        );
      }),
    );
  });
});
