import { DOCUMENT_MEDIA_TYPES, DOCUMENT_TYPES_BY_FILING_TYPE, type DocumentType } from "@dormant/contracts";
import { renderCt600Pdf, renderDormantAccountsIxbrl, renderDormantAccountsPdf } from "@dormant/documents";
import { buildCt600SubmitMessage, maskGatewayPassword } from "@dormant/govtalk";
import { sandboxReference, type SandboxFilingRef } from "./filing-id.ts";
import { sampleAccountsInput, sampleFacts, type SampleFacts } from "./sample-facts.ts";

/** A sandbox sample document, rendered in memory. */
export interface SampleDocument {
  type: DocumentType;
  fileName: string;
  mediaType: string;
  content: Buffer;
  generatedAt: string;
}

const FILE_SUFFIX: Record<DocumentType, string> = {
  ct600_pdf: "ct600.pdf",
  ct600_xml: "ct600.xml",
  ixbrl_accounts: "accounts.xhtml",
  accounts_pdf: "accounts.pdf",
};

/** An XML comment after the declaration: outside the root element, so it changes no IRmark or fact. */
function markedSandbox(xml: string, authority: string): string {
  const comment = `<!-- SANDBOX: sample document rendered from sample data by the sandbox; nothing was sent to ${authority} or stored. -->\n`;
  const declaration = /^<\?xml[^>]*\?>\n?/.exec(xml);
  if (!declaration) return comment + xml;
  return xml.slice(0, declaration[0].length) + comment + xml.slice(declaration[0].length);
}

/**
 * The sample CT600 message: built by govtalk's builder exactly as the tax submitter builds a
 * live one (so its IRenvelope is schema-valid and its IRmark real), marked as a test message
 * (`GatewayTest` 1), with a dummy gateway password masked as live messages are.
 */
function sampleCt600Message(facts: SampleFacts): { xml: string; irmark: string } {
  const message = buildCt600SubmitMessage({
    utr: facts.utr,
    companyName: facts.companyName,
    companyNumber: facts.companyNumber,
    periodStart: facts.periodStart,
    periodEnd: facts.periodEnd,
    declarantName: facts.directorName,
    declarantStatus: "Director",
    vendorId: "0000",
    productName: "Dormant filing platform sandbox",
    productVersion: "1.0",
    gatewayTest: true,
    senderId: "SANDBOX",
    password: "sandbox-dummy-password",
  });
  return { xml: markedSandbox(maskGatewayPassword(message.xml), "HMRC"), irmark: message.irmark.base64 };
}

async function render(ref: SandboxFilingRef, type: DocumentType): Promise<Buffer> {
  const facts = sampleFacts(ref);
  switch (type) {
    case "ct600_xml":
      return Buffer.from(sampleCt600Message(facts).xml, "utf8");
    case "ct600_pdf":
      return renderCt600Pdf({
        companyName: facts.companyName,
        companyNumber: facts.companyNumber,
        utr: facts.utr,
        periodStart: facts.periodStart,
        periodEnd: facts.periodEnd,
        declarantName: facts.directorName,
        declarantStatus: "Director",
        irmark: sampleCt600Message(facts).irmark,
        receipt: {
          correlationId: sandboxReference(ref, "CORR", 32),
          message: "SANDBOX: no receipt. This return was not sent to HMRC; a live return's receipt quotes its IRmark in base32.",
        },
        generatedAt: facts.generatedAt,
        sandbox: true,
      });
    case "ixbrl_accounts":
      return Buffer.from(markedSandbox(renderDormantAccountsIxbrl(sampleAccountsInput(facts)), "the registry"), "utf8");
    case "accounts_pdf":
      return renderDormantAccountsPdf({ ...sampleAccountsInput(facts), generatedAt: facts.generatedAt, sandbox: true });
  }
}

/** Rendered samples by `<filing id>:<type>`, oldest evicted first: a list and the downloads after it render once. */
const CACHE_ENTRIES = 64;
const cache = new Map<string, Promise<SampleDocument>>();

/** The sample document of a type the sandbox filing's kind has (the caller checks that). */
export function sampleDocument(ref: SandboxFilingRef, type: DocumentType): Promise<SampleDocument> {
  const key = `${ref.filingId}:${type}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const rendering = render(ref, type).then((content) => ({
    type,
    fileName: `${ref.filingId}-${FILE_SUFFIX[type]}`,
    mediaType: DOCUMENT_MEDIA_TYPES[type],
    content,
    generatedAt: new Date(sampleFacts(ref).generatedAt).toISOString(),
  }));
  rendering.catch(() => cache.delete(key));
  cache.set(key, rendering);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return rendering;
}

/** Every sample document of the filing's kind, in the order a live list gives them. */
export function sampleDocuments(ref: SandboxFilingRef): Promise<SampleDocument[]> {
  return Promise.all(DOCUMENT_TYPES_BY_FILING_TYPE[ref.filingType].map((type) => sampleDocument(ref, type)));
}
