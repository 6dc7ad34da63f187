import { AppError, CreateWebhookEndpointRequest, WEBHOOK_ENDPOINT_ID_PATTERN } from "@dormant/contracts";
import { type NextFunction, type Request, type Response, Router } from "express";
import { z } from "zod";
import { accountOf, type DashboardDeps, pageContext } from "../web/context.ts";
import { errorPage } from "../web/error-pages.ts";
import { sendPage } from "../web/respond.ts";
import { formList, formText, oneOf, pageNumber, pageRoute, queryFlag } from "../web/route.ts";
import type { WebhookActionLimiter } from "./action-limit.ts";
import { type NotifierClient, WebhookEndpointNotFoundError, type WebhookMode } from "./notifier-client.ts";
import {
  DELIVERIES_PAGE_SIZE,
  ENDPOINTS_PAGE_SIZE,
  type EndpointFormValues,
  endpointPage,
  endpointPath,
  type WebhooksView,
  webhooksPage,
} from "./view.ts";

export interface WebhooksOptions {
  notifier: NotifierClient;
  /** The webhook forms per account; without it they are not limited. */
  limiter?: WebhookActionLimiter;
}

/** Pages beyond this are read as this one (offsets stay small). */
const MAX_PAGE = 10_000;

/** `?mode=` or the form's `mode`: "test" or (anything else) "live". */
const ModeField = z.preprocess((value): WebhookMode => (value === "test" ? "test" : "live"), z.enum(["live", "test"]));

/** An endpoint's id in a path; anything else names no endpoint (the 404 page). */
const EndpointIdParams = z.object({ id: z.string().regex(WEBHOOK_ENDPOINT_ID_PATTERN) });

/** The forms of an endpoint's page: the key mode it is listed under. */
const EndpointActionForm = z.object({ mode: ModeField });

/** The add form's fields as sent (checkboxes: one value, several, or none). */
const AddEndpointForm = z.object({
  mode: ModeField,
  url: formText.transform((url) => url.trim()),
  events: formList,
  description: formText,
});

/** Clear messages for the form, from the contract's own schema (what the notifier would refuse the same way). */
function validateEndpointForm(
  values: EndpointFormValues,
): { ok: true; request: CreateWebhookEndpointRequest } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (values.url === "") errors.url = "Enter the endpoint's URL.";
  if (values.events.length === 0) errors.events = "Choose at least one event type.";
  const description = values.description.trim();
  const parsed = CreateWebhookEndpointRequest.safeParse({
    url: values.url,
    events: [...new Set(values.events)],
    ...(description ? { description } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "form");
      if (errors[field]) continue;
      if (field === "url")
        errors.url =
          values.url.length > 2048
            ? "The URL must be at most 2,048 characters."
            : "Enter a full address starting with https:// (or http://), without a user name or password.";
      else if (field === "events") errors.events = "Choose only the event types listed.";
      else if (field === "description") errors.description = "The description must be at most 200 characters.";
      else errors.form = "The endpoint was not added: the form is incomplete. Reload the page and try again.";
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, request: parsed.data };
}

/**
 * GET /webhooks (the account's endpoints of one key mode, the add form) and an endpoint's page
 * (its delivery attempts, "Send test event" or "Enable endpoint", "Rotate signing secret",
 * "Delete endpoint"); every
 * read and change is one notifier RPC for the signed-in account. A signing secret is only in the
 * answer to the add form or the rotate form: never logged, never stored, never in a URL.
 */
export function webhooksRoutes(deps: DashboardDeps, options: WebhooksOptions): Router {
  const router = Router();
  const { notifier } = options;

  const renderList = async (res: Response, status: number, mode: WebhookMode, pageNumber: number, extra: Partial<WebhooksView> = {}) => {
    const list = await notifier.listEndpoints(accountOf(res), mode, {
      limit: ENDPOINTS_PAGE_SIZE,
      offset: (pageNumber - 1) * ENDPOINTS_PAGE_SIZE,
    });
    sendPage(res, status, webhooksPage(pageContext(res, "/webhooks"), { mode, list, pageNumber, ...extra }));
  };

  const notFound = (res: Response) => sendPage(res, 404, errorPage("not_found"));

  router.get(
    "/webhooks",
    pageRoute({
      input: { query: z.object({ mode: ModeField, page: pageNumber(MAX_PAGE), deleted: queryFlag }) },
      handle: ({ query }, _req, res) => renderList(res, 200, query.mode, query.page, { notice: query.deleted ? "deleted" : undefined }),
    }),
  );

  // Every webhook form (add, and each endpoint's test, rotate, enable, delete) is counted per
  // account before its RPC; over the limit: 429 with Retry-After, nothing done.
  router.post(["/webhooks/endpoints", "/webhooks/endpoints/:id/:action"], async (req: Request, res: Response, next: NextFunction) => {
    if (!options.limiter) return next();
    const verdict = await options.limiter.attempt(accountOf(res), req.params.action === "test" ? "test" : "change");
    if (verdict.allowed) return next();
    deps.logger.warn({ account_id: accountOf(res), path: req.path }, "dashboard webhook action refused: rate limit");
    res.setHeader("Retry-After", String(verdict.retryAfterSeconds));
    sendPage(res, 429, errorPage("too_many"));
  });

  router.post(
    "/webhooks/endpoints",
    pageRoute({
      input: { form: AddEndpointForm },
      handle: async ({ form }, _req, res) => {
        const { mode, ...values } = form;
        const checked = validateEndpointForm(values);
        if (!checked.ok) return renderList(res, 422, mode, 1, { values, errors: checked.errors });
        const accountId = accountOf(res);
        try {
          const created = await notifier.createEndpoint(accountId, mode, checked.request);
          // The secret goes to this one page and nowhere else (not the log, not a redirect).
          deps.logger.info({ account_id: accountId, endpoint_id: created.id, mode }, "dashboard webhook endpoint created");
          await renderList(res, 201, mode, 1, { created });
        } catch (error) {
          if (error instanceof AppError && error.code === "VALIDATION_ERROR") {
            const urlDetail = error.details?.find((detail) => detail.field === "url");
            const errors = urlDetail
              ? { url: `The platform will not send to this URL: ${urlDetail.message.replace(/\.$/, "")}.` }
              : { form: `The endpoint was not added: ${error.message}` };
            return renderList(res, 422, mode, 1, { values, errors });
          }
          throw error;
        }
      },
    }),
  );

  /** The endpoint's page; without ?mode= it is looked for among the live endpoints, then the test ones. */
  router.get(
    "/webhooks/endpoints/:id",
    pageRoute({
      input: {
        params: EndpointIdParams,
        query: z.object({
          mode: oneOf(["live", "test"]),
          page: pageNumber(MAX_PAGE),
          enabled: queryFlag,
          test_sent: z.preprocess(
            (value) => (typeof value === "string" && /^evt_[A-Za-z0-9_]{16,64}$/.test(value) ? value : undefined),
            z.string().optional(),
          ),
        }),
      },
      handle: async ({ params: { id }, query }, _req, res) => {
        const accountId = accountOf(res);
        const modes: WebhookMode[] = query.mode ? [query.mode] : ["live", "test"];
        const pageNumber = query.page;
        const { enabled, test_sent: testSent } = query;
        for (const mode of modes) {
          try {
            const [endpoint, deliveries] = await Promise.all([
              notifier.getEndpoint(accountId, mode, id),
              notifier.listDeliveries(accountId, mode, id, {
                limit: DELIVERIES_PAGE_SIZE,
                offset: (pageNumber - 1) * DELIVERIES_PAGE_SIZE,
              }),
            ]);
            return sendPage(
              res,
              200,
              endpointPage(pageContext(res, "/webhooks"), { mode, endpoint, deliveries, pageNumber, testSent, enabled }),
            );
          } catch (error) {
            if (!(error instanceof WebhookEndpointNotFoundError)) throw error;
          }
        }
        notFound(res);
      },
    }),
  );

  router.post(
    "/webhooks/endpoints/:id/test",
    pageRoute({
      input: { params: EndpointIdParams, form: EndpointActionForm },
      handle: async ({ params: { id }, form: { mode } }, _req, res) => {
        const sent = await notifier.sendTest(accountOf(res), mode, id);
        deps.logger.info({ account_id: accountOf(res), endpoint_id: id, event_id: sent.event_id }, "dashboard webhook test event sent");
        res.redirect(303, `${endpointPath(id, mode)}&test_sent=${encodeURIComponent(sent.event_id)}`);
      },
    }),
  );

  // The new secret goes to this one answer (the endpoint's page, not a redirect) and nowhere else.
  router.post(
    "/webhooks/endpoints/:id/rotate",
    pageRoute({
      input: { params: EndpointIdParams, form: EndpointActionForm },
      handle: async ({ params: { id }, form: { mode } }, _req, res) => {
        const accountId = accountOf(res);
        // Read first: once rotated, nothing may fail between the new secret and this answer.
        const deliveries = await notifier.listDeliveries(accountId, mode, id, { limit: DELIVERIES_PAGE_SIZE, offset: 0 });
        const rotated = await notifier.rotateSecret(accountId, mode, id);
        deps.logger.info({ account_id: accountId, endpoint_id: id, mode }, "dashboard webhook endpoint secret rotated");
        const { secret: _secret, ...endpoint } = rotated;
        sendPage(res, 200, endpointPage(pageContext(res, "/webhooks"), { mode, endpoint, deliveries, pageNumber: 1, rotated }));
      },
    }),
  );

  router.post(
    "/webhooks/endpoints/:id/enable",
    pageRoute({
      input: { params: EndpointIdParams, form: EndpointActionForm },
      handle: async ({ params: { id }, form: { mode } }, _req, res) => {
        const accountId = accountOf(res);
        try {
          await notifier.enableEndpoint(accountId, mode, id);
        } catch (error) {
          if (!(error instanceof AppError && error.code === "VALIDATION_ERROR")) throw error;
          const [endpoint, deliveries] = await Promise.all([
            notifier.getEndpoint(accountId, mode, id),
            notifier.listDeliveries(accountId, mode, id, { limit: DELIVERIES_PAGE_SIZE, offset: 0 }),
          ]);
          const refusal = error.details?.find((detail) => detail.field === "url")?.message ?? error.message;
          return sendPage(
            res,
            422,
            endpointPage(pageContext(res, "/webhooks"), { mode, endpoint, deliveries, pageNumber: 1, enableRefused: refusal }),
          );
        }
        deps.logger.info({ account_id: accountId, endpoint_id: id, mode }, "dashboard webhook endpoint enabled again");
        res.redirect(303, `${endpointPath(id, mode)}&enabled=1`);
      },
    }),
  );

  router.post(
    "/webhooks/endpoints/:id/delete",
    pageRoute({
      input: { params: EndpointIdParams, form: EndpointActionForm },
      handle: async ({ params: { id }, form: { mode } }, _req, res) => {
        await notifier.deleteEndpoint(accountOf(res), mode, id);
        deps.logger.info({ account_id: accountOf(res), endpoint_id: id, mode }, "dashboard webhook endpoint deleted");
        res.redirect(303, `/webhooks?mode=${mode}&deleted=1`);
      },
    }),
  );

  /** Unknown (or another account's) endpoint: the 404 page (the notifier not answering: src/app.ts's 503 page). */
  router.use("/webhooks", (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (error instanceof WebhookEndpointNotFoundError) return notFound(res);
    next(error);
  });
  return router;
}
