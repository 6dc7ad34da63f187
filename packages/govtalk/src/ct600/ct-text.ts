/**
 * Text for the CT600 schema's restricted string types. `CT_CTstringType` allows only
 * `A-Z a-z 0-9 space , . ( ) / & ' - " ! % * _ + : @ < > ? = ;`, so names are transliterated
 * to that set:
 * 1. letters with diacritics lose them (Zoë -> Zoe, Ångström -> Angstrom);
 * 2. letters with no decomposition are spelled out (ß -> ss, Æ -> AE, Ø -> O, Ł -> L, Þ -> Th);
 * 3. typographic quotes and dashes become their ASCII forms (’ -> ', “ -> ", – -> -);
 * 4. any other character (£ $ # ~ € [ ] emoji...) is dropped;
 * 5. runs of whitespace become one space, and the ends are trimmed;
 * 6. the result is cut to the field's maximum length (56 for names), then trimmed again.
 * `&`, `<`, `>` and quotes are allowed and escaped by the XML writer.
 */

const SPELLED_OUT: Record<string, string> = {
  ß: "ss",
  ẞ: "SS",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  Ø: "O",
  ø: "o",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ð: "D",
  ð: "d",
  Þ: "Th",
  þ: "th",
  ı: "i",
  Ħ: "H",
  ħ: "h",
  Ŧ: "T",
  ŧ: "t",
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u2032": "'",
  "`": "'",
  "´": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u2033": '"',
  "«": '"',
  "»": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2026": "...",
};

const NOT_ALLOWED = /[^A-Za-z0-9 ,.()/&'\-"!%*_+:@<>?=;]/gu;

/** Transliterates `value` to the CT600 string character set (see the module comment). */
export function toCtText(value: string, maxLength: number): string {
  const spelled = [...value.normalize("NFKD").replace(/\p{M}/gu, "")].map((character) => SPELLED_OUT[character] ?? character).join("");
  const allowed = spelled.replace(/\s+/gu, " ").replace(NOT_ALLOWED, "").replace(/ {2,}/g, " ").trim();
  return allowed.slice(0, maxLength).trimEnd();
}
