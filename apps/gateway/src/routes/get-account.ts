import { AccountResponse } from "@dormant/contracts";
import { formatGbp } from "../account/account-backend.ts";
import { requireAuth } from "../auth/context.ts";
import { sendData } from "../http/envelope.ts";
import { API_KEY_SECURITY, readResponses } from "../openapi/responses.ts";
import { defineRoute } from "./route.ts";

/** `GET /account` (extension): the calling key's account, balance, holds and rate limits. */
export const getAccountRoute = defineRoute({
  kind: "read",
  openapi: {
    method: "get",
    path: "/account",
    operationId: "getAccount",
    tags: ["Account"],
    summary: "Get the calling key's account",
    description:
      "An extension of the spec. The account's balance, the amount held for live filings awaiting an answer (20.00 GBP each) and what " +
      "is available for new filings, plus the calling key's rate limits. Test keys see the same account but never hold or pay.",
    security: API_KEY_SECURITY,
    responses: readResponses("The account.", AccountResponse, [401, 429, 503]),
  },
  request: {},
  async handle(_input, { res, deps }) {
    const auth = requireAuth(res);
    const balance = await deps.account.getBalance(auth.accountId);
    const body: AccountResponse = {
      account_id: auth.accountId,
      mode: auth.mode,
      balance: formatGbp(balance.balance_pence),
      held: formatGbp(balance.held_pence),
      available: formatGbp(balance.available_pence),
      currency: "GBP",
      rate_limits: { per_minute: auth.limits.perMinute, per_day: auth.limits.perDay },
    };
    sendData(res, 200, body);
  },
});
