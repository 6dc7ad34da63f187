/** The input cannot be rendered; `problems` lists every reason, one sentence each. */
export class PdfInputError extends Error {
  override readonly name = "PdfInputError";
  constructor(readonly problems: readonly string[]) {
    super(`Invalid PDF input: ${problems.join("; ")}`);
  }
}
