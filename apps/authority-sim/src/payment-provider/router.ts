// LOCAL STAND-IN OF THE PAYMENT PROVIDER: not an authority, never run in production (env.ts turns
// it off when NODE_ENV=production). Billing creates top-up checkouts here as it would with the real
// provider; the agent pays on the page below; the stand-in then sends billing the signed payment
// webhook through billing's production path (POST /webhooks/payments). README "Payment provider stand-in".
import { createHash, timingSafeEqual } from "node:crypto";
import { formatPence, parseGbpToPence } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import express, { type Request, type Response, type Router } from "express";
import { z } from "zod";
import { CHECKOUT_CSS, CHECKOUT_FAVICON, checkoutPage, checkoutPageCsp, outcomePage, problemPage } from "./checkout-page.ts";
import type { PaymentProviderStandInConfig } from "./config.ts";
import { type CheckoutSession, CheckoutSessions, randomId, type ReversalKind } from "./sessions.ts";
import { sendPaymentWebhook, sendReversalWebhook } from "./webhook.ts";

/** Where the stand-in lives on the simulator: its API is `{sim}/payment-provider/v1`. */
export const PAYMENT_PROVIDER_PREFIX = "/payment-provider";

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2000);
const CreateSession = z.object({
  account_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  amount: z.string().refine((text) => {
    const pence = parseGbpToPence(text);
    return pence !== null && pence > 0n;
  }, 'must be a positive GBP amount like "50.00"'),
  currency: z.literal("GBP"),
  success_url: HttpUrl,
  cancel_url: HttpUrl,
});

const digest = (text: string) => createHash("sha256").update(text).digest();

/** A refund or dispute of a paid payment: `amount` (default: what is left of the payment); `id` to send an earlier one again. */
const CreateReversal = z.object({
  amount: z
    .string()
    .refine((text) => {
      const pence = parseGbpToPence(text);
      return pence !== null && pence > 0n;
    }, 'must be a positive GBP amount like "5.00"')
    .optional(),
  id: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/)
    .optional(),
});

export interface PaymentProviderRouterOptions {
  /** The base URL clients reach the simulator at (checkout URLs are made from it). */
  baseUrl: (req: Request) => string;
  logger?: Logger | undefined;
}

export function paymentProviderRouter(config: PaymentProviderStandInConfig, options: PaymentProviderRouterOptions): Router {
  const router = express.Router();
  const sessions = new CheckoutSessions(config.maxSessions);
  const { logger } = options;
  const assets = `${PAYMENT_PROVIDER_PREFIX}/assets`;
  const paths = (id: string) => ({
    pay: `${PAYMENT_PROVIDER_PREFIX}/checkout/${id}/pay`,
    cancel: `${PAYMENT_PROVIDER_PREFIX}/checkout/${id}/cancel`,
    assets,
  });
  const expectedKey = digest(config.apiKey);

  const sendPage = (res: Response, status: number, html: string, session?: CheckoutSession) => {
    res
      .status(status)
      .set({
        "content-security-policy": checkoutPageCsp(session),
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      })
      .type("html")
      .send(html);
  };
  const findSession = (req: Request, res: Response): CheckoutSession | undefined => {
    const session = sessions.get(String(req.params.id));
    if (!session) sendPage(res, 404, problemPage("Checkout not found", "This checkout does not exist or has expired.", assets));
    return session;
  };

  router.get("/assets/checkout.css", (_req, res) => {
    res.set({ "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" }).type("css").send(CHECKOUT_CSS);
  });

  router.get("/assets/favicon.svg", (_req, res) => {
    res.set({ "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" }).type("svg").send(CHECKOUT_FAVICON);
  });

  const authorized = (req: Request, res: Response, what: string): boolean => {
    const [scheme, key] = (req.get("authorization") ?? "").split(" ");
    if (scheme !== "Bearer" || !key || !timingSafeEqual(digest(key), expectedKey)) {
      logger?.warn(`payment provider stand-in: ${what} refused, missing or wrong API key`);
      res.status(401).json({ error: { code: "unauthorized", message: "A valid API key is required (Authorization: Bearer <key>)" } });
      return false;
    }
    return true;
  };

  // The provider's API: billing creates a checkout session (Authorization: Bearer <API key>).
  router.post("/v1/checkout_sessions", express.json({ limit: "16kb" }), (req, res) => {
    if (!authorized(req, res, "checkout")) return;
    const parsed = CreateSession.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({
        error: {
          code: "invalid_request",
          message: "The checkout session is not valid",
          details: parsed.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
        },
      });
      return;
    }
    const amountPence = parseGbpToPence(parsed.data.amount) ?? 0n;
    const session = sessions.create({ ...parsed.data, amount_pence: amountPence });
    logger?.info(
      { checkout_id: session.id, account_id: session.account_id, amount: session.amount },
      "payment provider stand-in: checkout created",
    );
    res.status(201).json({
      id: session.id,
      url: `${options.baseUrl(req)}${PAYMENT_PROVIDER_PREFIX}/checkout/${session.id}`,
      account_id: session.account_id,
      amount: session.amount,
      currency: session.currency,
      success_url: session.success_url,
      cancel_url: session.cancel_url,
      status: session.status,
    });
  });

  // The provider's side of a refund (the merchant's, with the API key) or of a dispute (the
  // payer's bank, simulated): billing is told through the signed webhook, as with a payment.
  // Never more in all than the payment; an `id` already used sends that same one again.
  const reverse = (kind: ReversalKind) => async (req: Request, res: Response) => {
    if (!authorized(req, res, kind)) return;
    const parsed = CreateReversal.safeParse(req.body ?? {});
    const session = sessions.byPayment(String(req.params.payment_id));
    if (!parsed.success || !session) {
      res.status(parsed.success ? 404 : 400).json({
        error: parsed.success
          ? { code: "not_found", message: "No paid payment with this id" }
          : {
              code: "invalid_request",
              message: "The request is not valid",
              details: parsed.error.issues.map((i) => ({ field: i.path.join("."), message: i.message })),
            },
      });
      return;
    }
    const earlier = parsed.data.id ? session.reversals.get(parsed.data.id) : undefined;
    const taken = [...session.reversals.values()].reduce((sum, reversal) => sum + reversal.amount_pence, 0n);
    const amountPence =
      earlier?.amount_pence ?? (parsed.data.amount ? (parseGbpToPence(parsed.data.amount) ?? 0n) : session.amount_pence - taken);
    if (earlier && earlier.kind !== kind) {
      res.status(409).json({ error: { code: "conflict", message: `${parsed.data.id} is a ${earlier.kind}` } });
      return;
    }
    if (!earlier && (amountPence <= 0n || taken + amountPence > session.amount_pence)) {
      res.status(409).json({ error: { code: "amount_too_large", message: "More than is left of the payment" } });
      return;
    }
    const id = parsed.data.id ?? randomId(kind === "refund" ? "re" : "dp");
    session.reversals.set(id, { kind, amount_pence: amountPence });
    const amount = formatPence(amountPence);
    const delivered = await sendReversalWebhook(config, session, { kind, id, amount }, logger);
    res.status(delivered.ok ? 201 : 502).json({
      id,
      payment_id: session.payment_id,
      amount,
      currency: "GBP",
      status: kind === "refund" ? "refunded" : "disputed",
      billing_notified: delivered.ok,
      ...(delivered.ok ? {} : { error: { code: "webhook_not_delivered", message: `${delivered.reason}; send again with this id` } }),
    });
  };
  router.post("/v1/payments/:payment_id/refunds", express.json({ limit: "4kb" }), reverse("refund"));
  router.post("/v1/payments/:payment_id/disputes", express.json({ limit: "4kb" }), reverse("dispute"));

  router.get("/checkout/:id", (req, res) => {
    const session = findSession(req, res);
    if (session) sendPage(res, 200, checkoutPage(session, paths(session.id)), session);
  });

  // "Pay": one payment per session, whatever is clicked again; billing is told before the agent
  // is sent back, so the balance has changed by the time the dashboard shows it.
  router.post("/checkout/:id/pay", express.urlencoded({ extended: false, limit: "4kb" }), async (req, res) => {
    const session = findSession(req, res);
    if (!session) return;
    if (session.status === "cancelled") {
      sendPage(res, 409, outcomePage(session, assets), session);
      return;
    }
    if (session.status === "paid" && session.notified) {
      res.redirect(303, session.success_url);
      return;
    }
    const paymentId = sessions.paymentIdFor(session);
    const delivered = await sendPaymentWebhook(config, session, paymentId, logger);
    if (!delivered.ok) {
      const text = `The payment could not be confirmed to the platform (${delivered.reason}). Nothing more will be charged: press Pay again to retry.`;
      sendPage(res, 502, problemPage("Payment not confirmed", text, assets), session);
      return;
    }
    session.status = "paid";
    session.notified = true;
    res.redirect(303, session.success_url);
  });

  router.get("/checkout/:id/cancel", (req, res) => {
    const session = findSession(req, res);
    if (!session) return;
    if (session.status === "open") session.status = "cancelled";
    if (session.status === "paid") {
      sendPage(res, 409, outcomePage(session, assets), session);
      return;
    }
    res.redirect(303, session.cancel_url);
  });

  return router;
}
