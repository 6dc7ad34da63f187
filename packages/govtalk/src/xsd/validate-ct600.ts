import { readFile } from "node:fs/promises";
import { XMLSerializer } from "@xmldom/xmldom";
import type { Element } from "@xmldom/xmldom";
import { validateXML } from "xmllint-wasm";
import { childElement } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";

/** The tax authority's CT600 schema (v1.994), shipped with this package (copy of testdata/hmrc). */
export const CT600_XSD_URL = new URL("../../schemas/CT-2014-v1-994.xsd", import.meta.url);

export interface XsdValidationResult {
  valid: boolean;
  /** xmllint's messages, e.g. "Schemas validity error : Element '{...}Name': [facet 'minLength'] ...". */
  errors: string[];
}

let schemaText: Promise<string> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** Read once, then reused by every validation. */
function ct600Schema(): Promise<string> {
  schemaText ??= readFile(CT600_XSD_URL, "utf8");
  return schemaText;
}

/** Runs validations one at a time: each xmllint-wasm run starts a worker with its own memory. */
function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

function findIRenvelope(root: Element): Element | undefined {
  if (root.localName === "IRenvelope" && root.namespaceURI === NS.ct) return root;
  if (root.localName !== "GovTalkMessage" || root.namespaceURI !== NS.envelope) return undefined;
  const body = childElement(root, "Body", NS.envelope);
  return body ? childElement(body, "IRenvelope", NS.ct) : undefined;
}

/**
 * Validates the `IRenvelope` of a CT600 (given as a whole GovTalk message or as the IRenvelope
 * alone) against the CT schema, offline. The GovTalk envelope itself is not schema-validated.
 * Throws GovTalkXmlError if the text is not well-formed XML.
 */
export async function validateCt600Body(xml: string): Promise<XsdValidationResult> {
  const root = parseXml(xml).documentElement;
  const envelope = root ? findIRenvelope(root) : undefined;
  if (!envelope) {
    return { valid: false, errors: [`no {${NS.ct}}IRenvelope (as the root or in a GovTalk Body)`] };
  }
  const contents = new XMLSerializer().serializeToString(envelope);
  const schema = await ct600Schema();
  const result = await serialised(() =>
    validateXML({
      xml: [{ fileName: "IRenvelope.xml", contents }],
      schema: [{ fileName: "CT-2014-v1-994.xsd", contents: schema }],
    }),
  );
  return { valid: result.valid, errors: result.errors.map((error) => error.message) };
}
