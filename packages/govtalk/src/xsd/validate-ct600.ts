import { readFile } from "node:fs/promises";
import { XMLSerializer } from "@xmldom/xmldom";
import type { Element } from "@xmldom/xmldom";
import { childElement } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";
import { compileSchema, type CompiledSchema, type XsdValidationResult } from "./compiled-schema.ts";

export type { XsdValidationResult } from "./compiled-schema.ts";

/** The tax authority's CT600 schema (v1.994), shipped with this package (copy of testdata/hmrc). */
export const CT600_XSD_URL = new URL("../../schemas/CT-2014-v1-994.xsd", import.meta.url);

let ct600Schema: Promise<CompiledSchema> | undefined;

/** Read and compiled once (~0.1 s), on first use; a failure is not remembered. */
function compiledCt600Schema(): Promise<CompiledSchema> {
  if (!ct600Schema) {
    const compiling = readFile(CT600_XSD_URL, "utf8").then((xsd) => compileSchema(xsd, CT600_XSD_URL.href));
    compiling.catch(() => {
      if (ct600Schema === compiling) ct600Schema = undefined;
    });
    ct600Schema = compiling;
  }
  return ct600Schema;
}

function findIRenvelope(root: Element): Element | undefined {
  if (root.localName === "IRenvelope" && root.namespaceURI === NS.ct) return root;
  if (root.localName !== "GovTalkMessage" || root.namespaceURI !== NS.envelope) return undefined;
  const body = childElement(root, "Body", NS.envelope);
  return body ? childElement(body, "IRenvelope", NS.ct) : undefined;
}

/**
 * Validates the `IRenvelope` of a CT600 (given as a whole GovTalk message or as the IRenvelope
 * alone) against the CT schema, offline, with libxml2's XSD validator. The schema is compiled
 * once and kept, so a validation costs well under a millisecond for a nil return; concurrent
 * calls are independent. The GovTalk envelope itself is not schema-validated.
 * Throws GovTalkXmlError if the text is not well-formed XML (or declares a DOCTYPE).
 */
export async function validateCt600Body(xml: string): Promise<XsdValidationResult> {
  const root = parseXml(xml).documentElement;
  const envelope = root ? findIRenvelope(root) : undefined;
  if (!envelope) {
    return { valid: false, errors: [`no {${NS.ct}}IRenvelope (as the root or in a GovTalk Body)`] };
  }
  const contents = new XMLSerializer().serializeToString(envelope);
  return (await compiledCt600Schema()).validate(contents);
}
