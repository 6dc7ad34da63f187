/**
 * The one escaping function of the iXBRL renderer. Every piece of text or attribute value that
 * reaches the document passes through `escapeXml`, which makes the output plain ASCII: markup
 * characters become entities and anything outside printable ASCII becomes a numeric character
 * reference (`&#163;` for a pound sign), so the document survives any transport or re-encoding.
 */

export class XmlCharacterError extends Error {
  override readonly name = "XmlCharacterError";
  constructor(readonly codePoint: number) {
    super(`U+${codePoint.toString(16).toUpperCase().padStart(4, "0")} cannot appear in an XML document`);
  }
}

/** Whether a code point is a legal XML 1.0 character (`Char` production). */
export function isXmlChar(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    (codePoint >= 0x10000 && codePoint <= 0x10ffff)
  );
}

/** The first code point of `text` that XML cannot carry, or undefined when every one is legal. */
export function findIllegalXmlChar(text: string): number | undefined {
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (!isXmlChar(codePoint)) return codePoint;
  }
  return undefined;
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escape text for use as XML character data or a double- or single-quoted attribute value.
 * @throws XmlCharacterError when the text holds a character XML cannot represent at all.
 */
export function escapeXml(text: string): string {
  let out = "";
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const entity = ENTITIES[char];
    if (entity !== undefined) {
      out += entity;
    } else if (codePoint >= 0x20 && codePoint < 0x7f) {
      out += char;
    } else if (isXmlChar(codePoint)) {
      out += `&#${codePoint};`;
    } else {
      throw new XmlCharacterError(codePoint);
    }
  }
  return out;
}
