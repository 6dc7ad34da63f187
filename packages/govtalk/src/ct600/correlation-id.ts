import { GovTalkInputError } from "../errors.ts";

/** A transaction engine CorrelationID: 1-32 upper-case hexadecimal digits. */
export const CORRELATION_ID_PATTERN = /^[0-9A-F]{1,32}$/;

export function assertCorrelationId(correlationId: string): void {
  if (!CORRELATION_ID_PATTERN.test(correlationId)) {
    const message = "correlationId must be 1-32 upper-case hexadecimal digits";
    throw new GovTalkInputError(message, [{ path: "correlationId", message }]);
  }
}
