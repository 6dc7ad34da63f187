import type { GovTalkError } from "./govtalk-error.ts";

/**
 * What a worker does with a failed exchange:
 * - authentication: credentials refused; do not retry (tax: API code TAX_AUTH_FAILED);
 * - schema: the message failed schema validation; do not retry (our bug or bad data);
 * - business: the authority rejected the filing's content; final, do not retry;
 * - transient: the authority failed on its side; retry later with backoff;
 * - protocol: the exchange itself was wrong (IRmark, correlation ID, unknown error); do not retry.
 */
export type GovTalkErrorKind = "authentication" | "schema" | "business" | "transient" | "protocol";

export interface GovTalkErrorClassification {
  kind: GovTalkErrorKind;
  retryable: boolean;
  /** The error the classification rests on (undefined when the answer had no error). */
  decisive: GovTalkError | undefined;
  /** "1046 Authentication Failure. ..." style text of the decisive error; safe to log. */
  summary: string;
}

/** Most to least decisive: an authentication failure explains everything after it. */
const PRECEDENCE: readonly GovTalkErrorKind[] = ["authentication", "transient", "schema", "protocol", "business"];

function kindByType(type: string): GovTalkErrorKind {
  if (type === "recoverable") return "transient";
  if (type === "business") return "business";
  return "protocol";
}

/**
 * Classifies errors with a table of known error numbers (or a function reading the whole error),
 * falling back on each error's Type.
 */
export function classifyWithTable(
  errors: readonly GovTalkError[],
  table: Readonly<Record<number, GovTalkErrorKind>> | ((error: GovTalkError) => GovTalkErrorKind | undefined),
): GovTalkErrorClassification {
  const known = typeof table === "function" ? table : (error: GovTalkError) => (error.number !== null ? table[error.number] : undefined);
  const significant = errors.filter((error) => error.type !== "warning");
  const candidates = (significant.length > 0 ? significant : errors).map((error) => ({
    error,
    kind: known(error) ?? kindByType(error.type),
  }));
  const best = candidates.sort((a, b) => PRECEDENCE.indexOf(a.kind) - PRECEDENCE.indexOf(b.kind))[0];
  if (!best) {
    return { kind: "protocol", retryable: false, decisive: undefined, summary: "error answer without any error detail" };
  }
  const { error, kind } = best;
  return {
    kind,
    retryable: kind === "transient",
    decisive: error,
    summary: `${error.number ?? "?"} ${error.text}`.trim(),
  };
}
