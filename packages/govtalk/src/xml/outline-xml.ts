import { GovTalkXmlError } from "../errors.ts";

/** Elements to pick out of a document: every element with this namespace and local name. */
export interface XmlPick {
  namespace: string;
  localName: string;
}

/** What is read of one picked element. */
export interface PickedElement {
  /** Attributes without a namespace, by name. */
  attributes: Record<string, string>;
  /** Its text content (the text of all its descendants, as DOM `textContent`). */
  text: string;
}

/** The root element and the picked elements (one list per pick, in document order). */
export interface XmlOutline {
  root: { localName: string; namespace: string | null };
  picked: PickedElement[][];
}

/** Reads a document strictly and returns its outline; throws GovTalkXmlError when it is not well-formed. */
export type XmlOutliner = (xml: string | Uint8Array, picks: readonly XmlPick[]) => XmlOutline;

const DOCTYPE = /<!DOCTYPE|<!ENTITY/i;
const NAME = /^[A-Za-z_][\w.-]*$/;

let loading: Promise<XmlOutliner> | undefined;

/**
 * Loads libxml2 (libxml2-wasm, the engine of the CT schema validation: once per process) and
 * returns a synchronous outliner: a well-formedness check and a few facts of a document, without
 * building an @xmldom/xmldom tree. For large documents that are read only for a few facts (the
 * iXBRL accounts the registry simulator checks: 17 kB), libxml2 parses in a quarter of the time
 * xmldom takes. As strict as `parseXml` on what matters here: any error libxml2 reports
 * (mismatched tags, repeated attributes, undeclared entities or prefixes, content after the root)
 * throws GovTalkXmlError("malformed XML: ..."), a DOCTYPE or entity declaration is refused before
 * parsing, and nothing is fetched (XML_PARSE_NONET, no DTD loading or entity substitution). The
 * document lives in WebAssembly memory only during the call.
 */
export function loadXmlOutliner(): Promise<XmlOutliner> {
  loading ??= (async () => {
    const { ParseOption, XmlDocument, XmlParseError } = await import("libxml2-wasm");
    return (xml, picks) => {
      const text = typeof xml === "string" ? xml : Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).toString("utf8");
      if (DOCTYPE.test(text)) throw new GovTalkXmlError("malformed XML: a DOCTYPE is not accepted");
      let document: InstanceType<typeof XmlDocument>;
      try {
        document = XmlDocument.fromString(text, { option: ParseOption.XML_PARSE_NONET });
      } catch (error) {
        if (error instanceof XmlParseError) {
          const first = error.details[0]?.message.trim().split("\n")[0] ?? error.message;
          throw new GovTalkXmlError(`malformed XML: ${first}`);
        }
        throw error;
      }
      try {
        const root = document.root;
        return {
          root: { localName: root.name, namespace: root.namespaceUri === "" ? null : root.namespaceUri },
          picked: picks.map(({ namespace, localName }) => {
            if (!NAME.test(localName) || namespace.includes("'")) throw new TypeError(`cannot pick {${namespace}}${localName}`);
            const elements = document.find(`//*[local-name()='${localName}' and namespace-uri()='${namespace}']`);
            return elements.map((element) => {
              const attributes: Record<string, string> = {};
              for (const attribute of (element as unknown as { attrs: { name: string; namespaceUri: string; value: string }[] }).attrs) {
                if (attribute.namespaceUri === "") attributes[attribute.name] = attribute.value;
              }
              return { attributes, text: element.content };
            });
          }),
        };
      } finally {
        document.dispose();
      }
    };
  })();
  return loading;
}
