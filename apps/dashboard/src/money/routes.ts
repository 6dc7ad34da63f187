import { AppError } from "@dormant/contracts";
import { type Response, Router } from "express";
import { z } from "zod";
import { accountOf, type DashboardDeps, pageContext } from "../web/context.ts";
import { sendPage } from "../web/respond.ts";
import { formText, oneOf, pageNumber, pageRoute } from "../web/route.ts";
import { parseTopUpAmount } from "./amount.ts";
import { ServiceUnavailableError } from "../bus/unavailable.ts";
import type { BillingClient } from "./billing.ts";
import { LEDGER_PAGE_SIZE, type MoneyView, moneyPage } from "./view.ts";

export interface MoneyOptions {
  billing: BillingClient;
  /** The dashboard's public address: where the provider sends the agent back. */
  publicUrl: string;
}

/** Pages beyond this are read as this one (offsets stay small). */
const MAX_PAGE = 100_000;

/** GET /money (balance, held, available; the ledger, 25 a page) and POST /money/top-up (to the provider's checkout). */
export function moneyRoutes(deps: DashboardDeps, options: MoneyOptions): Router {
  const router = Router();
  const { billing } = options;

  const render = async (res: Response, status: number, pageNumber: number, extra: Partial<MoneyView> = {}) => {
    const accountId = accountOf(res);
    const [balance, ledger] = await Promise.all([
      billing.getBalance(accountId),
      billing.listLedger(accountId, LEDGER_PAGE_SIZE, (pageNumber - 1) * LEDGER_PAGE_SIZE),
    ]);
    sendPage(res, status, moneyPage(pageContext(res, "/money"), { balance, ledger, pageNumber, ...extra }));
  };

  router.get(
    "/money",
    pageRoute({
      input: { query: z.object({ page: pageNumber(MAX_PAGE), top_up: oneOf(["success", "cancelled"]) }) },
      handle: ({ query }, _req, res) => render(res, 200, query.page, { topUp: query.top_up }),
    }),
  );

  router.post(
    "/money/top-up",
    pageRoute({
      input: { form: z.object({ amount: formText }) },
      handle: async ({ form }, _req, res) => {
        const { amount } = form;
        const parsed = parseTopUpAmount(amount);
        if (!parsed.ok) return render(res, 422, 1, { amount, amountError: parsed.error });
        const accountId = accountOf(res);
        try {
          const checkout = await billing.createCheckout({
            account_id: accountId,
            amount_pence: parsed.pence,
            success_url: `${options.publicUrl}/money?top_up=success`,
            cancel_url: `${options.publicUrl}/money?top_up=cancelled`,
          });
          const target = new URL(checkout.checkout_url);
          if (target.protocol !== "https:" && target.protocol !== "http:")
            throw new ServiceUnavailableError("billing", "checkout_url is not http(s)");
          deps.logger.info(
            { account_id: accountId, checkout_id: checkout.checkout_id, amount_pence: parsed.pence },
            "dashboard top-up started",
          );
          res.redirect(303, target.href);
        } catch (error) {
          if (error instanceof AppError && error.code === "VALIDATION_ERROR")
            return render(res, 422, 1, { amount, formError: `The top-up was not started: ${error.message}` });
          throw error;
        }
      },
    }),
  );

  return router;
}
