/**
 * Turns a registry officer name into the order people write it:
 * "LOVELACE, Augusta Ada" -> "Augusta Ada Lovelace".
 *
 * - The part before the first comma is the surname. When it is all upper case (the registry's
 *   habit) it is put in title case, each word and each part after a hyphen or apostrophe
 *   capitalised: O'BRIEN -> O'Brien, SMITH-JONES -> Smith-Jones, VAN DER BERG -> Van Der Berg.
 *   Names with an inner capital cannot be recovered (MCDONALD -> Mcdonald); a surname already in
 *   mixed case is kept as given.
 * - The next comma-separated part is the forenames, kept as given (it may start with a title
 *   such as "Dr"). Any further parts (titles or honours after another comma) are dropped.
 * - A name without a comma is kept as given. Whitespace is trimmed and collapsed.
 */
export function formatOfficerName(registryName: string): string {
  const [surnamePart = "", ...rest] = registryName.split(",").map(tidy);
  if (rest.length === 0) return surnamePart;
  const forenames = rest[0] ?? "";
  return [forenames, titleCaseIfUpper(surnamePart)].filter((part) => part.length > 0).join(" ");
}

function tidy(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

function titleCaseIfUpper(surname: string): string {
  if (surname !== surname.toUpperCase()) return surname;
  return surname
    .toLowerCase()
    .replace(/(^|[\s\-'’])(\p{Ll})/gu, (_, separator: string, letter: string) => separator + letter.toUpperCase());
}
