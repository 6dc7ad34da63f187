import {
  DormantAccountsInputError,
  PdfInputError,
  renderCt600Pdf,
  renderDormantAccountsPdf,
  type Ct600PdfInput,
  type DormantAccountsPdfInput,
} from "@dormant/documents";

/**
 * One PDF to render, as plain data: what the filing service hands to a render thread (structured
 * clone) or renders inline. The input is built on the event loop from the stored filing (cheap);
 * only the pdfkit work happens where the renderer runs.
 */
export type PdfJob = { type: "ct600_pdf"; input: Ct600PdfInput } | { type: "accounts_pdf"; input: DormantAccountsPdfInput };

/** Renders one job in this thread (the worker's body, and the inline renderer's). */
export function renderPdfJob(job: PdfJob): Promise<Buffer> {
  return job.type === "ct600_pdf" ? renderCt600Pdf(job.input) : renderDormantAccountsPdf(job.input);
}

/** A render error as it crosses from a render thread to the event loop. */
export interface SerializedRenderError {
  name: string;
  message: string;
  /** PdfInputError / DormantAccountsInputError: every problem with the input. */
  problems?: string[];
  stack?: string;
}

export function serializeRenderError(error: unknown): SerializedRenderError {
  if (error instanceof PdfInputError || error instanceof DormantAccountsInputError) {
    return { name: error.name, message: error.message, problems: [...error.problems] };
  }
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: "Error", message: String(error) };
}

/**
 * The error again, of the class the consumer tells apart: input errors become PdfInputError /
 * DormantAccountsInputError (parked, not retried); anything else a plain Error (retried).
 */
export function reviveRenderError(serialized: SerializedRenderError): Error {
  if (serialized.name === "PdfInputError") return new PdfInputError(serialized.problems ?? [serialized.message]);
  if (serialized.name === "DormantAccountsInputError") return new DormantAccountsInputError(serialized.problems ?? [serialized.message]);
  const error = new Error(serialized.message);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}

/**
 * A CT600 PDF that exercises every face and most of the layout, rendered once when a render
 * thread starts so that the faces are parsed before the first real filing asks
 * (`@dormant/documents` keeps them per thread).
 */
export const WARM_UP_JOB: PdfJob = {
  type: "ct600_pdf",
  input: {
    companyName: "Warm-up Société Ørsted Ŵ Łódź Ltd",
    companyNumber: "00000000",
    utr: "0000000000",
    periodStart: "2025-04-01",
    periodEnd: "2026-03-31",
    declarantName: "Warm Up",
    declarantStatus: "Director",
    irmark: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    part: { number: 1, of: 2 },
    receipt: { correlationId: "0".repeat(32), acceptedAt: "2026-04-01T00:00:00Z", message: "warm-up" },
    generatedAt: "2026-04-01T00:00:00Z",
  },
};
