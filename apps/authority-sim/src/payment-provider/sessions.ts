// LOCAL STAND-IN OF THE PAYMENT PROVIDER (not an authority; never in production): its checkout sessions.
import { randomBytes } from "node:crypto";
import { BoundedMap } from "../state/bounded-map.ts";

export type SessionStatus = "open" | "paid" | "cancelled";

export interface CheckoutSession {
  id: string;
  account_id: string;
  /** Decimal pounds, e.g. "50.00" (the provider's API and webhook speak amounts as strings). */
  amount: string;
  amount_pence: bigint;
  currency: "GBP";
  success_url: string;
  cancel_url: string;
  status: SessionStatus;
  /** Set at the first "Pay": every later attempt sends this same payment (never a second one). */
  payment_id: string | null;
  /** True once billing acknowledged the payment webhook (2xx). */
  notified: boolean;
  created_at: string;
}

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(15).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** The stand-in's sessions, in memory only (oldest evicted first). */
export class CheckoutSessions {
  readonly #sessions: BoundedMap<string, CheckoutSession>;

  constructor(capacity: number) {
    this.#sessions = new BoundedMap(capacity);
  }

  create(input: Pick<CheckoutSession, "account_id" | "amount" | "amount_pence" | "success_url" | "cancel_url">): CheckoutSession {
    const session: CheckoutSession = {
      id: randomId("cs"),
      ...input,
      currency: "GBP",
      status: "open",
      payment_id: null,
      notified: false,
      created_at: new Date().toISOString(),
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  get(id: string): CheckoutSession | undefined {
    return this.#sessions.get(id);
  }

  /** The session's one payment id, made at its first "Pay". */
  paymentIdFor(session: CheckoutSession): string {
    session.payment_id ??= randomId("pay");
    return session.payment_id;
  }
}
