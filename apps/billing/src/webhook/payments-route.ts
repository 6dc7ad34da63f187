import { isAppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import express, { type Request, type Response, type Router } from "express";
import type { BillingDb } from "../db/client.ts";
import { applyCheckoutPayment } from "../checkout/checkout-payments.ts";
import { applyPaymentReversal, UnknownPaymentError } from "../ledger/reversals.ts";
import { applyTopUp } from "../ledger/top-ups.ts";
import type { BillingMetrics } from "../metrics.ts";
import { formatPence } from "../money/pence.ts";
import { PaymentNotification } from "./payload.ts";
import { SIGNATURE_HEADER, verifyPaymentSignature } from "./signature.ts";

export interface PaymentWebhookSettings {
  secret: string;
  toleranceSeconds: number;
}

export interface PaymentWebhookDeps {
  db: BillingDb;
  logger: Logger;
  metrics: BillingMetrics;
  settings: PaymentWebhookSettings;
}

type Refusal =
  | "invalid_signature"
  | "stale_timestamp"
  | "invalid_payload"
  | "unknown_account"
  | "unknown_payment"
  | "payment_conflict"
  | "unavailable";

const STATUS: Record<Refusal, number> = {
  invalid_signature: 401,
  stale_timestamp: 401,
  invalid_payload: 400,
  unknown_account: 404,
  unknown_payment: 404,
  payment_conflict: 409,
  unavailable: 503,
};

/**
 * POST /webhooks/payments: the payment provider tells billing a payment succeeded, or was
 * refunded or disputed. The signature is checked over the raw bytes before anything is parsed;
 * then a succeeded payment is credited through applyTopUp (the admin CLI's top-up runs the same
 * code), once per payment id, and a refund or dispute is debited through applyPaymentReversal,
 * once per refund or dispute id. Any refusal changes nothing; 4xx other than 404/409 mean "never
 * send this again", 404 (the account is not open in billing yet, or the payment a refund names is
 * not credited yet) and 503 are worth the provider's retry.
 */
export function paymentWebhookRouter({ db, logger, metrics, settings }: PaymentWebhookDeps): Router {
  const router = express.Router();

  const refuse = (res: Response, reason: Refusal, message: string, details?: Array<{ field: string; message: string }>) => {
    metrics.webhookRefusals.inc({ reason });
    if (reason === "unavailable") res.setHeader("Retry-After", "5");
    res.status(STATUS[reason]).json({ received: false, error: { code: reason, message, ...(details ? { details } : {}) } });
  };

  router.post("/webhooks/payments", express.raw({ type: () => true, limit: "16kb" }), async (req: Request, res: Response) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = verifyPaymentSignature({
      header: req.get(SIGNATURE_HEADER),
      rawBody,
      secret: settings.secret,
      toleranceSeconds: settings.toleranceSeconds,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    if (!signature.ok) {
      logger.warn({ reason: signature.reason }, "payment webhook refused: signature");
      if (signature.reason === "stale")
        return refuse(res, "stale_timestamp", `The signature's timestamp is more than ${settings.toleranceSeconds} s from now`);
      return refuse(
        res,
        "invalid_signature",
        `The ${SIGNATURE_HEADER} header is ${signature.reason === "missing" ? "missing" : "not a valid signature of this body"}`,
      );
    }

    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return refuse(res, "invalid_payload", "The body is not JSON");
    }
    const parsed = PaymentNotification.safeParse(json);
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message }));
      return refuse(res, "invalid_payload", "The payment notification is not valid", details);
    }
    const payment = parsed.data;
    const fields = {
      payment_id: payment.payment_id,
      account_id: payment.account_id,
      amount: formatPence(payment.amount),
      status: payment.status,
      ...(payment.checkout_id ? { checkout_id: payment.checkout_id } : {}),
    };
    if (payment.status === "refunded" || payment.status === "disputed") {
      const kind = payment.status === "refunded" ? "refund" : "dispute";
      const providerId = (kind === "refund" ? payment.refund_id : payment.dispute_id) ?? "";
      const reversalFields = { ...fields, [`${kind}_id`]: providerId };
      try {
        const reversal = await applyPaymentReversal(db, {
          kind,
          providerId,
          paymentId: payment.payment_id,
          accountId: payment.account_id,
          amountPence: payment.amount,
        });
        metrics.reversals.inc({ kind, result: reversal.duplicate ? "duplicate" : "debited" });
        const logged = {
          ...reversalFields,
          reversal_id: reversal.reversalId,
          duplicate: reversal.duplicate,
          available: formatPence(reversal.availablePence),
        };
        if (reversal.duplicate) logger.info(logged, `payment ${kind} already debited`);
        else if (reversal.availablePence < 0n)
          logger.warn(logged, `payment ${kind} debited: the account now owes money and can hold no fee`);
        else logger.info(logged, `payment ${kind} debited`);
        res.json({
          received: true,
          payment_id: payment.payment_id,
          reversal_id: reversal.reversalId,
          debited: !reversal.duplicate,
          duplicate: reversal.duplicate,
        });
      } catch (error) {
        if (error instanceof UnknownPaymentError) {
          logger.warn(reversalFields, `payment ${kind} refused: the payment is not credited (yet)`);
          return refuse(res, "unknown_payment", error.message);
        }
        if (isAppError(error) && error.code === "NOT_FOUND") {
          logger.warn(reversalFields, `payment ${kind} refused: unknown account`);
          return refuse(res, "unknown_account", `No billing account "${payment.account_id}"`);
        }
        if (isAppError(error) && error.code === "IDEMPOTENCY_KEY_CONFLICT") {
          logger.error(reversalFields, `payment ${kind} refused: ${error.message}`);
          return refuse(res, "payment_conflict", error.message);
        }
        logger.error({ ...reversalFields, err: error }, "payment webhook failed");
        return refuse(res, "unavailable", "Billing could not record the payment; retry later");
      }
      return;
    }
    if (payment.status !== "succeeded") {
      logger.info(fields, "payment webhook acknowledged: not a succeeded payment, nothing credited");
      res.json({ received: true, payment_id: payment.payment_id, credited: false, duplicate: false });
      return;
    }

    try {
      const credit = { accountId: payment.account_id, amountPence: payment.amount, paymentId: payment.payment_id };
      const topUp = payment.checkout_id
        ? await applyCheckoutPayment(db, { ...credit, checkoutId: payment.checkout_id })
        : await applyTopUp(db, { ...credit, source: "webhook" });
      if ("checkoutMatched" in topUp && !topUp.checkoutMatched)
        logger.warn(fields, "payment names a checkout billing has no record of; credited all the same");
      metrics.topUps.inc({ source: "webhook", result: topUp.duplicate ? "duplicate" : "credited" });
      logger.info(
        { ...fields, top_up_id: topUp.topUpId, duplicate: topUp.duplicate },
        topUp.duplicate ? "payment already credited" : "payment credited",
      );
      res.json({
        received: true,
        payment_id: payment.payment_id,
        top_up_id: topUp.topUpId,
        credited: !topUp.duplicate,
        duplicate: topUp.duplicate,
      });
    } catch (error) {
      if (isAppError(error) && error.code === "NOT_FOUND") {
        logger.warn(fields, "payment webhook refused: unknown account");
        return refuse(res, "unknown_account", `No billing account "${payment.account_id}"`);
      }
      if (isAppError(error) && error.code === "IDEMPOTENCY_KEY_CONFLICT") {
        logger.error(fields, "payment webhook refused: payment id already credited with another account or amount");
        return refuse(res, "payment_conflict", error.message);
      }
      logger.error({ ...fields, err: error }, "payment webhook failed");
      return refuse(res, "unavailable", "Billing could not record the payment; retry later");
    }
  });
  return router;
}
