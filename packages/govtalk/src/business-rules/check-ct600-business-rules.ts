import { fileURLToPath } from "node:url";
import { GovTalkXmlError } from "../errors.ts";
import { childElements, textOf, childElement } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";
import { runXsltproc, XsltprocError } from "./xsltproc.ts";

/**
 * HMRC's CT600 business rules v1.96 (ChRIS), compiled from their Schematron to XSLT 1.0 with
 * EXSLT: a byte-identical copy of `testdata/hmrc/CT-2014-v1-96.xslt` (checked by a test).
 */
export const CT600_BUSINESS_RULES_URL = new URL("../../schemas/CT-2014-v1-96.xslt", import.meta.url);
const STYLESHEET_PATH = fileURLToPath(CT600_BUSINESS_RULES_URL);

/** One failed rule, exactly as HMRC's stylesheet words it in `err:ErrorResponse/err:Error`. */
export interface BusinessRuleFailure {
  /** HMRC's rule number, e.g. 9100. */
  number: number;
  /** `ChRIS`. */
  raisedBy: string;
  /** `business`. */
  type: string;
  text: string;
  /** XPath of the offending node, e.g. `/hd:GovTalkMessage[1]/hd:Body[1]/ct:IRenvelope[1]/…`. */
  location: string;
}

export interface BusinessRulesOptions {
  /** Default 10 s; the stylesheet takes ~0.1 s of CPU for a nil return. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The xsltproc command (default `xsltproc` from PATH). */
  command?: string;
}

/** The stylesheet's output was not the `err:ErrorResponse` it always writes. */
export class BusinessRulesOutputError extends XsltprocError {}

function readFailures(output: string): BusinessRuleFailure[] {
  let root: ReturnType<typeof parseXml>["documentElement"];
  try {
    root = parseXml(output).documentElement;
  } catch (error) {
    throw new BusinessRulesOutputError(`the business rules wrote no readable ErrorResponse: ${(error as Error).message}`);
  }
  if (root?.localName !== "ErrorResponse" || root.namespaceURI !== NS.errorResponse) {
    throw new BusinessRulesOutputError("the business rules wrote something other than an err:ErrorResponse");
  }
  return childElements(root, "Error", NS.errorResponse).map((error) => {
    const field = (name: string) => textOf(childElement(error, name, NS.errorResponse));
    return {
      number: Number(field("Number")),
      raisedBy: field("RaisedBy"),
      type: field("Type"),
      text: field("Text"),
      location: field("Location"),
    };
  });
}

/**
 * Applies HMRC's CT600 business rules to a whole GovTalk submission message (the rules match
 * from `/hd:GovTalkMessage/hd:Body/ct:IRenvelope`): resolves to the failed rules, `[]` when every
 * rule passes. The message is first parsed strictly (malformed XML or a DOCTYPE throws
 * GovTalkXmlError), then transformed by libxslt's `xsltproc` in a child process (message on its
 * standard input, no network, no DTD), at most one per core at a time, so the caller's event loop
 * is never blocked by the ~0.1 s of CPU each message costs.
 *
 * Rejects with XsltprocMissingError when xsltproc is not installed (its message says how to
 * install it), XsltprocError on a time-out, an abort or a failed run.
 */
export async function checkCt600BusinessRules(govTalkXml: string, options: BusinessRulesOptions = {}): Promise<BusinessRuleFailure[]> {
  const root = parseXml(govTalkXml).documentElement;
  if (root?.localName !== "GovTalkMessage" || root.namespaceURI !== NS.envelope) {
    throw new GovTalkXmlError("not a GovTalk message: HMRC's business rules apply to a whole GovTalk submission");
  }
  const output = await runXsltproc(STYLESHEET_PATH, govTalkXml, {
    timeoutMs: options.timeoutMs ?? 10_000,
    signal: options.signal,
    ...(options.command !== undefined ? { command: options.command } : {}),
  });
  return readFailures(output);
}
