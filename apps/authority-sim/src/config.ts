import type { PaymentProviderStandInConfig } from "./payment-provider/config.ts";
import type { TimingSettings } from "./timing.ts";

/** Everything the simulator is configured with (from `loadConfig`, or built directly by tests). */
export interface SimConfig {
  port: number;
  host: string;
  /** Base URL clients use to reach the simulator (no trailing slash); else taken from each request. */
  publicUrl?: string | undefined;
  /** Starting timing; changeable at run time through `/_control/timing`. */
  timing: TimingSettings;
  /** How long a request the authority "stops answering" is held before the connection is dropped. */
  hangMs: number;
  maxBodyBytes: number;
  /** Submissions kept per authority (oldest evicted first). */
  maxSubmissions: number;
  /** Entries kept in the received log (oldest evicted first). */
  maxReceived: number;
  tax: {
    /** A SenderID or password equal to this is refused with error 1046. */
    refusedCredential: string;
    /**
     * Apply HMRC's compiled CT600 business rules (xsltproc, a child process per return) to every
     * submission; off: only the simulator's own 9100/9101 checks (SIM_BUSINESS_RULES).
     */
    businessRules: boolean;
  };
  registry: {
    /** The only presenter the XML gateway accepts (its SenderID is the MD5 of this). */
    presenterId: string;
    presenterAuthCode: string;
    /** A CompanyAuthenticationCode equal to this is rejected as invalid for every company. */
    refusedCompanyAuthCode: string;
  };
  registryData: {
    /** Basic-auth user name the public data API accepts. */
    apiKey: string;
    /** Requests per key per 5 minutes; 0 turns the limit off. */
    rateLimitPer5Min: number;
    /** Calendar date synthetic companies are generated relative to (keeps them deterministic). */
    asOf: string;
  };
  shutdownTimeoutMs: number;
  /**
   * The local stand-in of the payment provider (not an authority; src/payment-provider), or
   * null/absent when it is off (always off in production).
   */
  paymentProvider?: PaymentProviderStandInConfig | null;
}
