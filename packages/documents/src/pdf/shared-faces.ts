import PDFDocument from "pdfkit";
import { FONT } from "./fonts.ts";

/**
 * pdfkit opens a TrueType face anew for every document: `fontkit.create` on the file's bytes,
 * then, as text is laid out, decoding the face's tables (cmap, hmtx, GSUB, GPOS, glyf...). For
 * the three DejaVu faces that was about 36 ms of a 47 ms CT600 PDF, on the filing service's event
 * loop, for every accepted filing. A decoded face never changes afterwards (each document still
 * gets its own subset, glyph widths and layout cache), so the process keeps the first document's
 * parsed face per file and gives every later document a font object over the same face.
 *
 * Laying text out on a face (fontkit's OpenType shaping: GSUB/GPOS lookups per word) was the
 * next largest cost of a document, and pdfkit caches it per document only, although a word laid
 * out on a face always gives the same glyphs and positions and pdfkit never changes a cached
 * layout (within a document it hands the same one out for every repetition of the word). The
 * process therefore keeps one layout cache per face for every document, bounded: once it holds
 * more than MAX_SHARED_LAYOUTS words it starts afresh (company names, numbers and ids vary; the
 * words of the templates come back at once).
 *
 * pdfkit offers no public way to pass a parsed face or a layout cache, so this relies on three
 * internals of the pinned pdfkit (0.17): `font()` answers from `_fontFamilies[name]` when it is
 * set, an embedded font is constructed as `new EmbeddedFont(document, fontkitFace, id)`, and it
 * keeps laid-out words in its `layoutCache` object. The tests in shared-faces.isolated.test.ts fail if
 * any of them changes (faces and layouts shared, text extracted exactly, output byte-identical
 * to a document rendered without sharing).
 */

/** pdfkit's laid-out words of one font: text -> glyphs and positions. */
type LayoutCache = Record<string, unknown>;

/** The parts of pdfkit's embedded font object this relies on. */
interface EmbeddedFontInternals {
  font: object;
  /** Absent when a document is created with `fontLayoutCache: false`. */
  layoutCache?: LayoutCache;
  constructor: new (document: PDFKit.PDFDocument, face: object, id: string) => EmbeddedFontInternals;
}

/** The parts of a pdfkit document's font state this relies on. */
interface FontStateInternals {
  _fontFamilies: Record<string, EmbeddedFontInternals | undefined>;
  _fontCount: number;
  _font: EmbeddedFontInternals | null;
}

interface ParsedFace {
  face: object;
  EmbeddedFont: EmbeddedFontInternals["constructor"];
}

const FACE_FILES: ReadonlySet<string> = new Set(Object.values(FONT));
const parsedFaces = new Map<string, ParsedFace>();

/** Words kept per face before its shared layout cache starts afresh. */
export const MAX_SHARED_LAYOUTS = 5_000;
/** How many documents may take a face's cache before its size is looked at again (counting keys is not free). */
const SIZE_CHECK_EVERY = 64;
const layoutCaches = new Map<object, { cache: LayoutCache; uses: number }>();

/** How many faces this process has parsed (at most one per file in FONT); for tests. */
export function parsedFaceCount(): number {
  return parsedFaces.size;
}

/** The layout cache every document shares for `face` (pdfkit keeps words in it as it lays them out). */
function sharedLayoutCache(face: object): LayoutCache {
  let entry = layoutCaches.get(face);
  if (entry && ++entry.uses % SIZE_CHECK_EVERY === 0 && Object.keys(entry.cache).length > MAX_SHARED_LAYOUTS) entry = undefined;
  if (!entry) {
    entry = { cache: Object.create(null) as LayoutCache, uses: 0 };
    layoutCaches.set(face, entry);
  }
  return entry.cache;
}

/** Gives `font` the face's shared layout cache, unless the document asked for none. */
function shareLayouts(font: EmbeddedFontInternals): void {
  if (font.layoutCache) font.layoutCache = sharedLayoutCache(font.font);
}

function internals(doc: PDFKit.PDFDocument): FontStateInternals {
  return doc as unknown as FontStateInternals;
}

/**
 * Before pdfkit opens one of our faces for `doc`, gives it a font object over the face parsed
 * earlier in this process; after it opened one for the first time, keeps that face.
 */
function shareFaces(doc: PDFKit.PDFDocument): void {
  const open = doc.font.bind(doc) as (src: unknown, family?: unknown, size?: unknown) => PDFKit.PDFDocument;
  const state = internals(doc);
  doc.font = function font(src: unknown, family?: unknown, size?: unknown) {
    if (typeof src !== "string" || !FACE_FILES.has(src)) return open(src, family, size);
    const parsed = parsedFaces.get(src);
    if (parsed && !state._fontFamilies[src]) {
      state._fontCount += 1;
      const embedded = new parsed.EmbeddedFont(doc, parsed.face, `F${state._fontCount}`);
      shareLayouts(embedded);
      state._fontFamilies[src] = embedded;
    }
    const result = open(src, family, size);
    if (!parsed && state._font) {
      parsedFaces.set(src, { face: state._font.font, EmbeddedFont: state._font.constructor });
      shareLayouts(state._font);
    }
    return result;
  } as PDFKit.PDFDocument["font"];
}

/**
 * A pdfkit document whose DejaVu faces are parsed once per process. `options.font` (the default
 * face) is opened through the shared faces as well.
 */
export function createPdfDocument(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  const { font, ...rest } = options;
  // The constructor would open the default face itself, before sharing is in place. With `font:
  // null` it opens none (not even Helvetica, whose metrics it would parse); the default face is
  // opened right after, before anything is drawn.
  const doc = new PDFDocument({ ...rest, font: null as unknown as string });
  shareFaces(doc);
  if (font) doc.font(font);
  return doc;
}
