export { renderCt600Pdf } from "./render-ct600-pdf.ts";
export { renderDormantAccountsPdf } from "./render-dormant-accounts-pdf.ts";
export { findCt600PdfInputProblems } from "./ct600-pdf-input.ts";
export { PdfInputError } from "./pdf-input-error.ts";
export { irmarkBase32 } from "./irmark.ts";
export type {
  Ct600PdfInput,
  Ct600Receipt,
  Ct600ReturnPart,
  Ct600ReturnType,
  DormantAccountsPdfInput,
  PdfDocumentOptions,
} from "./pdf-inputs.ts";
