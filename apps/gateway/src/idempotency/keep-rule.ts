/** What the keeping rule looks at in an answer about to go out. */
export interface AnswerToKeep {
  status: number;
  /** The answer's Retry-After header, if it has one. */
  retryAfter: string | undefined;
  /** The error envelope's `error.code`, when the answer is one. */
  errorCode: string | undefined;
}

/**
 * Statuses that never decide a key (spec section 8, README "When an answer is lost"):
 * - 400: nothing was attempted; the corrected body may reuse the key;
 * - 402 INSUFFICIENT_BALANCE: nothing was held or filed; after a top-up the same request must
 *   succeed under the same key (the filing service removed the filing it planned);
 * - 429: refused before anything ran; the request is allowed again after Retry-After.
 */
const NEVER_KEPT_STATUSES: ReadonlySet<number> = new Set([400, 402, 429]);

/** Codes that say "not now" rather than what became of the request. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(["IDEMPOTENCY_KEY_IN_USE", "RATE_LIMIT_EXCEEDED", "INSUFFICIENT_BALANCE"]);

/**
 * Whether an answer decides its Idempotency-Key and is replayed for 24 hours. Only deciding
 * answers are kept: a success, or a refusal that a retry of the same request would get again
 * (409 FILING_EXISTS, ...). A transient refusal is never kept: any 5xx (the authority or a part of
 * the platform could not say: a retry must ask again, and the filing service answers it from the
 * filing it holds), 409 IDEMPOTENCY_KEY_IN_USE (its request has ended since), 429, 402, 400, and
 * anything carrying Retry-After (its own words: try again later).
 */
export function isDecidingAnswer(answer: AnswerToKeep): boolean {
  if (answer.status >= 500 || NEVER_KEPT_STATUSES.has(answer.status)) return false;
  if (answer.retryAfter !== undefined && answer.retryAfter !== "") return false;
  return answer.errorCode === undefined || !TRANSIENT_CODES.has(answer.errorCode);
}

/** `error.code` of an error envelope (a JSON body `{ success: false, error: { code } }`), else undefined. */
export function errorCodeOf(body: Buffer, contentType: string | undefined): string | undefined {
  if (contentType !== undefined && !/json/i.test(contentType)) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    if (typeof parsed !== "object" || parsed === null || !("error" in parsed)) return undefined;
    const { error } = parsed;
    return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
  } catch {
    return undefined;
  }
}
