import { correlatedMessageBuilder } from "./correlated-message.ts";

/**
 * Builds the GovTalk `request`/`delete` that clears a finished CT600 submission from the
 * transaction engine once its response or error has been read (an answer of error 2000 means
 * it was already gone).
 */
export const buildCt600DeleteMessage = correlatedMessageBuilder({ qualifier: "request", function: "delete" });
