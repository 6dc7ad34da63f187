import type { SimContext } from "../context.ts";
import type { ReceivedEntry } from "../state/received-log.ts";

export interface RegistryExchange {
  context: SimContext;
  now: number;
}

export type RegistryReceived = Omit<ReceivedEntry, "seq" | "at" | "target">;

/** A handler's decision: an XML answer, or silence (held, then dropped). */
export type RegistryAnswer = { xml: string; received: RegistryReceived } | { hang: true; received: RegistryReceived };
