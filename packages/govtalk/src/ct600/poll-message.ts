import { correlatedMessageBuilder } from "./correlated-message.ts";

/**
 * Builds the GovTalk `poll` for a CT600 submission: same Class and CorrelationID as the
 * acknowledgement, no SenderDetails, empty Keys, no Body content. POST it to the
 * acknowledgement's ResponseEndPoint after its PollInterval.
 */
export const buildCt600PollMessage = correlatedMessageBuilder({ qualifier: "poll", function: "submit" });
