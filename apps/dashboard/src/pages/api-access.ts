import { AppError } from "@dormant/contracts";
import { type Response, Router } from "express";
import { z } from "zod";
import { GatewayNotFoundError } from "../bus/gateway.ts";
import { accountOf, type DashboardDeps, pageContext } from "../web/context.ts";
import { errorPage } from "../web/error-pages.ts";
import { sendPage } from "../web/respond.ts";
import { type ApiAccessView, apiAccessPage } from "./api-access-view.ts";
import { formText, pageRoute } from "../web/route.ts";
import { fieldErrors } from "./auth-forms.ts";

const KeyNameInput = z.string().trim().min(1, "Enter a name for the key.").max(80, "Key name must be at most 80 characters.");
const ModeInput = z.enum(["live", "test"], { error: "Choose Live or Test." });

/** GET /api-access and its forms: enable API access, create a key (secret shown once), revoke a key. */
export function apiAccessRoutes(deps: DashboardDeps): Router {
  const router = Router();

  /** The account and its keys in parallel: two RPCs per page, whatever the number of keys. */
  const render = async (res: Response, status: number, extra: Omit<ApiAccessView, "account" | "keys"> = {}) => {
    const accountId = accountOf(res);
    const [account, keys] = await Promise.all([deps.gateway.getAccount(accountId), deps.gateway.listKeys(accountId)]);
    sendPage(res, status, apiAccessPage(pageContext(res, "/api-access"), { account, keys, ...extra }));
  };

  /** 429 with the page and why: the gateway limits key changes per account. */
  const refusedForNow = (res: Response, error: AppError, values: ApiAccessView["values"], change: "created" | "revoked") => {
    if (error.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(error.retryAfterSeconds));
    const wait = error.retryAfterSeconds === undefined ? "later" : `in ${error.retryAfterSeconds} seconds`;
    return render(res, 429, {
      values,
      errors: { form: `The key was not ${change}: too many key changes for this account; try again ${wait}.` },
    });
  };

  router.get("/api-access", async (_req, res) => render(res, 200));

  router.post("/api-access/enable", async (_req, res) => {
    await deps.gateway.enableApiAccess(accountOf(res));
    res.redirect(303, "/api-access");
  });

  router.post(
    "/api-access/keys",
    pageRoute({
      input: { form: z.object({ name: formText, mode: formText }) },
      handle: async ({ form: values }, _req, res) => {
        const parsed = z.object({ name: KeyNameInput, mode: ModeInput }).safeParse(values);
        if (!parsed.success) return render(res, 422, { values, errors: fieldErrors(parsed.error) });
        try {
          const created = await deps.gateway.createKey(accountOf(res), parsed.data.mode, parsed.data.name);
          deps.logger.info({ account_id: accountOf(res), key_id: created.key.key_id, mode: created.key.mode }, "dashboard key created");
          await render(res, 201, { created });
        } catch (error) {
          if (error instanceof AppError && error.code === "VALIDATION_ERROR")
            return render(res, 422, { values, errors: { form: `The key was not created: ${error.message}` } });
          if (error instanceof AppError && error.code === "RATE_LIMIT_EXCEEDED") return refusedForNow(res, error, values, "created");
          throw error;
        }
      },
    }),
  );

  router.post(
    "/api-access/keys/:keyId/revoke",
    pageRoute({
      input: { params: z.object({ keyId: z.string() }) },
      handle: async ({ params }, _req, res) => {
        try {
          const revoked = await deps.gateway.revokeKey(accountOf(res), params.keyId);
          deps.logger.info({ account_id: accountOf(res), key_id: revoked.key_id }, "dashboard key revoked");
          res.redirect(303, "/api-access");
        } catch (error) {
          if (error instanceof GatewayNotFoundError) return sendPage(res, 404, errorPage("not_found"));
          if (error instanceof AppError && error.code === "RATE_LIMIT_EXCEEDED") return refusedForNow(res, error, undefined, "revoked");
          throw error;
        }
      },
    }),
  );
  return router;
}
