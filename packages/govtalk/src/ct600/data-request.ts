import { z } from "zod";
import { parseInput } from "../envelope/parse-input.ts";
import { appendSenderDetails, serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { escapeXmlText } from "../envelope/xml-escape.ts";
import { PASSWORD_MASK } from "../secrets/mask-gateway-password.ts";
import { CT600_CLASS } from "./constants.ts";
import { formatGovTalkTimeStamp } from "./govtalk-timestamp.ts";

const instant = z.union([z.date(), z.number().int().nonnegative()]);

/** What a DATA_REQUEST (list of the sender's CT600 submissions) is built from. */
export const ct600DataRequestInputSchema = z.strictObject({
  /** Government Gateway ID: the engine lists the submissions of this sender. */
  senderId: z.string().trim().min(1),
  /** Government Gateway password; goes only into `Authentication/Value`. */
  password: z.string().min(1),
  gatewayTest: z.boolean(),
  /** Only submissions from this instant on (`StartDate`/`StartTime`, UK local time). */
  startTimeStamp: instant.optional(),
  /** Only submissions up to this instant (`EndDate`/`EndTime`). */
  endTimeStamp: instant.optional(),
  /** `ChannelRouting/Channel`, as on a submission (optional on a DATA_REQUEST here). */
  channel: z
    .strictObject({ vendorId: z.string().regex(/^\d{4}$/), productName: z.string().min(1), productVersion: z.string().min(1) })
    .optional(),
});

export type Ct600DataRequestInput = z.input<typeof ct600DataRequestInputSchema>;

/** A DATA_REQUEST ready to POST, and the same text with the password masked (for logs and records). */
export interface Ct600DataRequestMessage {
  xml: string;
  maskedXml: string;
}

const MASKED_VALUE = `<Value>${PASSWORD_MASK}</Value>`;

/**
 * Builds the Transaction Engine's DATA_REQUEST for CT600: `Qualifier request`, `Function list`,
 * `Class HMRC-CT-CT600`, empty CorrelationID, the sender's clear credentials (as on a
 * submission), empty Keys, and a Body asking for the identifiers (`IncludeIdentifiers 1`) and,
 * when given, the window (`StartDate`/`StartTime`, `EndDate`/`EndTime`: `dd/mm/yyyy`,
 * `hh:mm:ss`, UK local time). The engine answers a `response`/`list` whose Body `StatusReport`
 * lists the sender's submissions (parseCt600DataResponse). The Body's element names follow
 * HMRC's Document Submission Protocol as far as it could be checked offline (README).
 * Throws GovTalkInputError on invalid input (the password is never in the message of an error).
 */
export function buildCt600DataRequest(input: Ct600DataRequestInput): Ct600DataRequestMessage {
  const data = parseInput(ct600DataRequestInputSchema, input, "CT600 data request input");
  const { document, root, header } = startGovTalkMessage({
    envelopeVersion: "2.0",
    class: CT600_CLASS,
    qualifier: "request",
    function: "list",
    correlationId: "",
    transformation: "XML",
    gatewayTest: data.gatewayTest,
  });
  appendSenderDetails(header, { senderId: data.senderId, method: "clear", role: "Principal", value: PASSWORD_MASK });
  const details = root.ele("GovTalkDetails");
  details.ele("Keys");
  if (data.channel) {
    details.ele("TargetDetails").ele("Organisation").txt("HMRC");
    const channel = details.ele("ChannelRouting").ele("Channel");
    channel.ele("URI").txt(data.channel.vendorId);
    channel.ele("Product").txt(data.channel.productName);
    channel.ele("Version").txt(data.channel.productVersion);
  }
  const body = root.ele("Body");
  body.ele("IncludeIdentifiers").txt("1");
  const window: [string, Date | number | undefined][] = [
    ["Start", data.startTimeStamp],
    ["End", data.endTimeStamp],
  ];
  for (const [which, at] of window) {
    if (at === undefined) continue;
    const [date, time] = formatGovTalkTimeStamp(at).split(" ") as [string, string];
    body.ele(`${which}Date`).txt(date);
    body.ele(`${which}Time`).txt(time);
  }
  const maskedXml = serializeMessage(document);
  const at = maskedXml.indexOf(MASKED_VALUE);
  if (at < 0 || maskedXml.indexOf(MASKED_VALUE, at + 1) >= 0)
    throw new Error("the built data request does not contain exactly one masked password Value");
  const xml = `${maskedXml.slice(0, at)}<Value>${escapeXmlText(data.password)}</Value>${maskedXml.slice(at + MASKED_VALUE.length)}`;
  return { xml, maskedXml };
}
