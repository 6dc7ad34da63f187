import { fileURLToPath } from "node:url";

/**
 * DejaVu fonts (vendored under assets/fonts with their licence): Unicode TrueType faces, so
 * names such as "Société Générale", "Ørsted" or Welsh "ŵ" render and extract as text, which the
 * standard PDF fonts (WinAnsi only) cannot promise. pdfkit embeds only the glyphs used. The
 * paths double as pdfkit font names; each face is parsed once per process (shared-faces.ts).
 */
const fontFile = (name: string): string => fileURLToPath(new URL(`../../assets/fonts/${name}`, import.meta.url));

export const FONT = {
  regular: fontFile("DejaVuSans.ttf"),
  bold: fontFile("DejaVuSans-Bold.ttf"),
  /** For references a reader may have to copy or compare (IRmark, UTR, correlation ID). */
  mono: fontFile("DejaVuSansMono.ttf"),
} as const;
