// LOCAL STAND-IN OF THE PAYMENT PROVIDER (not an authority; never in production): its checkout sessions.
import { randomBytes } from "node:crypto";
import { BoundedMap } from "../state/bounded-map.ts";

export type SessionStatus = "open" | "paid" | "cancelled";
export type ReversalKind = "refund" | "dispute";

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
  /** Refunds and disputes of its payment, by id (pence each): never more in all than the payment. */
  reversals: Map<string, { kind: ReversalKind; amount_pence: bigint }>;
  created_at: string;
}

export function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(15).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** The stand-in's sessions, in memory only (oldest evicted first). */
export class CheckoutSessions {
  readonly #sessions: BoundedMap<string, CheckoutSession>;
  /** Payment id -> session id, for refunds and disputes of a payment. */
  readonly #byPayment: BoundedMap<string, string>;

  constructor(capacity: number) {
    this.#sessions = new BoundedMap(capacity);
    this.#byPayment = new BoundedMap(capacity);
  }

  create(input: Pick<CheckoutSession, "account_id" | "amount" | "amount_pence" | "success_url" | "cancel_url">): CheckoutSession {
    const session: CheckoutSession = {
      id: randomId("cs"),
      ...input,
      currency: "GBP",
      status: "open",
      payment_id: null,
      notified: false,
      reversals: new Map(),
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
    if (!session.payment_id) {
      session.payment_id = randomId("pay");
      this.#byPayment.set(session.payment_id, session.id);
    }
    return session.payment_id;
  }

  /** The paid session of a payment id (refunds and disputes name the payment). */
  byPayment(paymentId: string): CheckoutSession | undefined {
    const id = this.#byPayment.get(paymentId);
    const session = id ? this.#sessions.get(id) : undefined;
    return session?.status === "paid" ? session : undefined;
  }
}
