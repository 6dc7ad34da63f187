import { createHash } from "node:crypto";
import { NS, validateCt600Body, type XsdValidationResult } from "@dormant/govtalk";
import { XMLSerializer, type Element } from "@xmldom/xmldom";
import { BoundedMap } from "../state/bounded-map.ts";

/** The `IRenvelope` directly under a GovTalk Body, serialised on its own (with its namespaces). */
export function irenvelopeText(body: Element | undefined): string | undefined {
  if (!body) return undefined;
  for (let node = body.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === 1 && element.localName === "IRenvelope" && element.namespaceURI === NS.ct) {
      return new XMLSerializer().serializeToString(element);
    }
  }
  return undefined;
}

/**
 * CT schema validation of submitted returns (@dormant/govtalk's validateCt600Body), with the
 * results for recently seen identical returns remembered: validation is a pure function of the
 * text (about 1 ms for a nil return), so resubmitted or repeated test returns reuse the answer.
 * Only the IRenvelope is validated and keyed (never the envelope, which holds the credentials).
 */
export class CtSchemaCheck {
  readonly #recent = new BoundedMap<string, Promise<XsdValidationResult>>(1_000);

  validate(irenvelope: string): Promise<XsdValidationResult> {
    const key = createHash("sha256").update(irenvelope).digest("base64");
    const known = this.#recent.get(key);
    if (known) return known;
    const result = validateCt600Body(irenvelope);
    this.#recent.set(key, result);
    result.catch(() => this.#recent.delete(key));
    return result;
  }
}
