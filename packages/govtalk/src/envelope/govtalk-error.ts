/** `Type` of a GovTalk error as the envelope schema enumerates it. */
export type GovTalkErrorType = "fatal" | "recoverable" | "business" | "warning";

/**
 * One error from `GovTalkDetails/GovTalkErrors/Error` or from a tax `Body/ErrorResponse/Error`.
 * `type` is kept as received: the tax authority also sends validator rule names there
 * (e.g. `xbrl.ixbrl.HeaderAbsent`).
 */
export interface GovTalkError {
  raisedBy: string;
  /** null when absent or not an integer. */
  number: number | null;
  type: string;
  /** The `Text` elements joined with a space. */
  text: string;
  /** The `Location` elements joined with a space; "" when none. */
  location: string;
}

/** What an answer builder needs to write one error. */
export interface GovTalkErrorInput {
  raisedBy: string;
  number: number;
  type: GovTalkErrorType | (string & {});
  text: string;
  location?: string;
}
