/**
 * Escaping exactly as xmlbuilder2 (the builder of every message here) writes text and attribute
 * values, for values written into messages serialised beforehand (MessageTemplate, the CT600
 * submission's password): text `&`, `<`, `>`; attribute values those and `"`. Nothing else is
 * changed (no character references for control characters, as xmlbuilder2 writes none).
 */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>]/g, (character) => (character === "&" ? "&amp;" : character === "<" ? "&lt;" : "&gt;"));
}

export function escapeXmlAttribute(value: string): string {
  return value.replace(/[&<>"]/g, (character) =>
    character === "&" ? "&amp;" : character === "<" ? "&lt;" : character === ">" ? "&gt;" : "&quot;",
  );
}
