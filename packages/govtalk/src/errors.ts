/**
 * Errors thrown by this package. Their messages never contain a gateway password, a presenter
 * authentication code or a company authentication code.
 */

/** The text given is not a well-formed XML document, or not the GovTalk message expected. */
export class GovTalkXmlError extends Error {
  override readonly name = "GovTalkXmlError";
}

/** A builder was given input that cannot make a valid message (see `issues`). */
export class GovTalkInputError extends Error {
  override readonly name = "GovTalkInputError";
  constructor(
    message: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(message);
  }
}
