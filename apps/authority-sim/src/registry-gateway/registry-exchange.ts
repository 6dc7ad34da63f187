import type { XmlOutliner } from "@dormant/govtalk";
import type { SimContext } from "../context.ts";
import type { ReceivedEntry } from "../state/received-log.ts";

export interface RegistryExchange {
  context: SimContext;
  now: number;
  /** Reads attached documents (libxml2, loaded once: SimContext.xmlOutliner). */
  outline: XmlOutliner;
}

export type RegistryReceived = Omit<ReceivedEntry, "seq" | "at" | "target">;

/** A handler's decision: an XML answer, or silence (held, then dropped). */
export type RegistryAnswer = { xml: string; received: RegistryReceived } | { hang: true; received: RegistryReceived };
