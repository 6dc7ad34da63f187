import type { Element } from "@xmldom/xmldom";
import type { GovTalkErrorClassification } from "../envelope/classify.ts";
import type { GovTalkError } from "../envelope/govtalk-error.ts";
import { readGovTalkEnvelope, type GovTalkEnvelope } from "../envelope/read-envelope.ts";
import { GovTalkXmlError } from "../errors.ts";
import { childElement, childElements, textAt } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { classifyRegistryErrors } from "./classify-errors.ts";
import { registryStatusOutcome, type RegistrySubmissionStatus } from "./status.ts";

/** The gateway refused the message (`GovTalkErrors`). */
export interface RegistryErrorAnswer {
  type: "error";
  transactionId: string | undefined;
  errors: GovTalkError[];
  classification: GovTalkErrorClassification;
}

/** The gateway took the submission; its status is then polled by submission number. */
export interface RegistrySubmitAcknowledgement {
  type: "acknowledgement";
  transactionId: string | undefined;
}

/** The answer to GetSubmissionStatus. */
export interface RegistryStatusAnswer {
  type: "status";
  transactionId: string | undefined;
  statuses: RegistrySubmissionStatus[];
}

function errorAnswer(envelope: GovTalkEnvelope): RegistryErrorAnswer | undefined {
  if (envelope.qualifier !== "error" && !envelope.errors.some((error) => error.type !== "warning")) return undefined;
  return {
    type: "error",
    transactionId: envelope.transactionId,
    errors: envelope.errors,
    classification: classifyRegistryErrors(envelope.errors),
  };
}

/** Reads the gateway's answer to an accounts submission (acknowledgement or errors). */
export function parseAccountsSubmissionResponse(xml: string): RegistrySubmitAcknowledgement | RegistryErrorAnswer {
  const envelope = readGovTalkEnvelope(xml);
  const error = errorAnswer(envelope);
  if (error) return error;
  if (envelope.qualifier === "acknowledgement" || envelope.qualifier === "response") {
    return { type: "acknowledgement", transactionId: envelope.transactionId };
  }
  throw new GovTalkXmlError(`not an answer of the registry gateway: Qualifier ${JSON.stringify(envelope.qualifier)}`);
}

function readStatus(status: Element): RegistrySubmissionStatus {
  const text = (path: string[]) => textAt(status, path, NS.registry);
  const rejections = childElement(status, "Rejections", NS.registry);
  const examiner = childElement(status, "Examiner", NS.registry);
  const statusCode = text(["StatusCode"]) ?? "";
  return {
    submissionNumber: text(["SubmissionNumber"]) ?? "",
    statusCode,
    outcome: registryStatusOutcome(statusCode),
    companyNumber: text(["CompanyNumber"]),
    rejections: rejections
      ? childElements(rejections, "Reject", NS.registry).map((reject) => ({
          rejectCode: textAt(reject, ["RejectCode"], NS.registry) ?? "",
          description: textAt(reject, ["Description"], NS.registry) ?? "",
          instanceNumber: textAt(reject, ["InstanceNumber"], NS.registry),
        }))
      : [],
    examiner: examiner
      ? { telephone: textAt(examiner, ["Telephone"], NS.registry), comment: textAt(examiner, ["Comment"], NS.registry) }
      : undefined,
  };
}

/** Reads the gateway's answer to GetSubmissionStatus (statuses or errors); lenient, no schema check. */
export function parseSubmissionStatusResponse(xml: string): RegistryStatusAnswer | RegistryErrorAnswer {
  const envelope = readGovTalkEnvelope(xml);
  const error = errorAnswer(envelope);
  if (error) return error;
  const answer = envelope.body ? childElement(envelope.body, "SubmissionStatus", NS.registry) : undefined;
  if (!answer) throw new GovTalkXmlError(`no {${NS.registry}}SubmissionStatus in the answer's Body`);
  return {
    type: "status",
    transactionId: envelope.transactionId,
    statuses: childElements(answer, "Status", NS.registry).map(readStatus),
  };
}
