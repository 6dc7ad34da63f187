import type { SimContext } from "../context.ts";
import type { ReceivedEntry } from "../state/received-log.ts";

/** What a tax handler needs about the request it answers. */
export interface TaxExchange {
  context: SimContext;
  /** Base URL of the simulated transaction engine, e.g. http://127.0.0.1:4100/tax. */
  baseUrl: string;
  now: number;
}

/** A handler's decision: an XML answer, or silence (the request is held, then dropped). */
export type TaxAnswer = { xml: string; received: TaxReceived } | { hang: true; received: TaxReceived };

export type TaxReceived = Omit<ReceivedEntry, "seq" | "at" | "target">;
