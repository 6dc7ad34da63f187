import {
  CT600_CLASS,
  GovTalkXmlError,
  parseCt600DataRequest,
  parseCt600Request,
  taxError,
  type Ct600DataRequest,
  type Ct600Request,
} from "@dormant/govtalk";
import { declaresDoctype } from "../xml/xml-body.ts";
import { handleDelete } from "./delete-handler.ts";
import { handleList } from "./list-handler.ts";
import { handlePoll } from "./poll-handler.ts";
import { handleSubmit } from "./submit-handler.ts";
import { taxErrorAnswer } from "./tax-answers.ts";
import type { TaxAnswer, TaxExchange } from "./tax-exchange.ts";

function schemaError(exchange: TaxExchange, reason: string, kind = "unknown", company?: string): TaxAnswer {
  return {
    xml: taxErrorAnswer(exchange, [taxError(1001, { text: `${taxError(1001).text} ${reason}` })]),
    received: { kind, company, answer: "error:1001" },
  };
}

/** The message as a DATA_REQUEST, or undefined when it is not one. */
function readDataRequest(xml: string): Ct600DataRequest | undefined {
  try {
    return parseCt600DataRequest(xml);
  } catch (error) {
    if (error instanceof GovTalkXmlError) return undefined;
    throw error;
  }
}

/**
 * Answers one message posted to the transaction engine (either endpoint: it routes on the
 * message's Qualifier and Function: submit, poll, delete, or a DATA_REQUEST list). Anything
 * that is not a well-formed GovTalk 2.0 CT600 message gets error 1001.
 */
export async function answerTaxRequest(xml: string, exchange: TaxExchange): Promise<TaxAnswer> {
  if (xml.trim() === "") return schemaError(exchange, "The message is empty.");
  if (declaresDoctype(xml)) return schemaError(exchange, "A DOCTYPE or entity declaration is not allowed.");
  let request: Ct600Request;
  try {
    request = parseCt600Request(xml);
  } catch (error) {
    if (!(error instanceof GovTalkXmlError)) throw error;
    // Not a submit, poll or delete: a DATA_REQUEST (request/list) is read on its own (only
    // then is the text parsed again), anything else is error 1001.
    const list = readDataRequest(xml);
    if (!list) return schemaError(exchange, error.message);
    if (list.envelope.envelopeVersion !== "2.0") return schemaError(exchange, "EnvelopeVersion must be 2.0.", list.kind);
    if (list.class !== CT600_CLASS) return schemaError(exchange, `Class must be ${CT600_CLASS}.`, list.kind);
    return handleList(list, exchange);
  }
  if (request.envelope.envelopeVersion !== "2.0") return schemaError(exchange, "EnvelopeVersion must be 2.0.", request.kind);
  if (request.class !== CT600_CLASS) return schemaError(exchange, `Class must be ${CT600_CLASS}.`, request.kind);
  switch (request.kind) {
    case "submit":
      return handleSubmit(request, exchange, xml);
    case "poll":
      return handlePoll(request, exchange);
    case "delete":
      return handleDelete(request, exchange);
  }
}
