// The gateway's Express app: every middleware and route of the public API, in this order.
//
//  0-3 run as one composed layer (http/compose.ts), in this order:
//  0. trace span        the request's SERVER span, the caller's traceparent honoured (service-kit
//                       tracing/http-server-spans.ts; a no-op without the tracing preload),
//                       named by its route in each route's chain.
//  1. request id        X-Request-Id on every response (the caller's uuid or a new one) and the
//                       request context, so every log line and bus message carries the id.
//  2. access log        one line per request when it ends (http/access-log.ts): request_id,
//                       method, path, status, duration; never bodies, headers or the query. The
//                       same finish listener records http_requests_total /
//                       http_request_duration_seconds by route template (service-kit).
//  3. security headers  nosniff, no framing, no caching, no referrer; x-powered-by is off.
//  4. /api/v1 routes, each mounted as ONE handler composing the chain of its kind, in this order
//     (routes/route.ts; compose() keeps Express's next/throw/rejection contract):
//       public  GET /health               -> handler
//       read    GET /filings[...]         -> auth -> rate limit -> validate -> handler
//       submit  POST /filings/{type}      -> auth -> rate limit -> JSON body -> validate
//                                            -> idempotency -> handler
//       json    POST /filings/{type}/validate, POST /webhook_endpoints
//                                         -> auth -> rate limit -> JSON body -> validate
//                                            -> handler (no Idempotency-Key: validation stores
//                                            nothing; the notifier answers endpoint creation)
//       action  DELETE /webhook_endpoints/{id}, POST .../rotate_secret, POST .../enable, POST .../test
//                                         -> auth -> rate limit -> validate -> handler (no
//                                            body is read, no Idempotency-Key)
//     Auth comes first so that nothing is revealed to callers without a key; the rate limit
//     right after it, so the X-RateLimit-* headers are on every authenticated answer, errors
//     included. Validation (headers + body, one 400 VALIDATION_ERROR listing every field) runs
//     before idempotency, identically for live and test keys: an invalid request never claims
//     or records an Idempotency-Key (the middleware also never keeps 400s or 5xx). Idempotency
//     is stateless for test keys (the middleware passes them through: the sandbox id is
//     derived from key and body). The handler picks the live (bus) or sandbox backend by the
//     key's mode, so the two modes never see each other's filings.
//     GET /api/v1/openapi.json is public (the document of the API).
//  5. /docs             Swagger UI from bundled assets (its own CSP).
//  6. ops               /healthz /readyz /metrics on the main port, outside /api/v1, no key
//                       (the ingress exposes only /api/v1 and /docs). After the API so that API
//                       requests do not walk these routes.
//  7. 404 NOT_FOUND in the envelope for anything else, then the error handler: every failure in
//     the envelope with request_id and Retry-After where the code has one; never a stack.
//
// Composing saves a step of Express's router per middleware on every request; the order and
// what each step does are unchanged (each middleware keeps its own file and tests).
import type { Logger, ReadinessCheck } from "@dormant/service-kit";
import { createHttpMetrics, type createMetricsRegistry, createOpsRouter } from "@dormant/service-kit";
import { nameServerSpan, traceHttpRequests } from "@dormant/service-kit/tracing";
import { API_PREFIX, type SealingKey } from "@dormant/contracts";
import express, { type Express, type RequestHandler } from "express";
import type { Redis } from "ioredis";
import { clientAddressOf } from "./auth/client-address.ts";
import { createAuthMiddleware } from "./auth/middleware.ts";
import type { GatewayDb } from "./db/client.ts";
import { docsRouter } from "./docs/docs-router.ts";
import { type BillingRpcBus, createBusAccountBackend } from "./account/account-backend.ts";
import { createBusFilingBackend, type FilingRpcBus } from "./filing-backend/bus-filing-backend.ts";
import type { FilingBackends } from "./filing-backend/filing-backend.ts";
import { accessLog } from "./http/access-log.ts";
import { compose } from "./http/compose.ts";
import { errorHandler } from "./http/error-handler.ts";
import { jsonBody } from "./http/json-body.ts";
import { notFound } from "./http/not-found.ts";
import { requestIdMiddleware } from "./http/request-id.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { createIdempotencyMiddleware } from "./idempotency/middleware.ts";
import { createIdempotencyStore } from "./idempotency/store.ts";
import { createSecretHasher } from "./keys/hash.ts";
import { createLastUsedRecorder } from "./keys/last-used.ts";
import { createApiKeyVerifier } from "./keys/verifier.ts";
import { openApiRoute } from "./openapi/openapi-route.ts";
import { createRateLimiter } from "./rate-limit/limiter.ts";
import { DEFAULT_VALIDATION_LIMITS, type RateLimits } from "./rate-limit/limits.ts";
import { createRateLimitMiddleware } from "./rate-limit/middleware.ts";
import { createValidationLimitMiddleware } from "./rate-limit/validation-limit.ts";
import { API_ROUTES } from "./routes/index.ts";
import type { Route, RouteDeps } from "./routes/route.ts";
import { createSandboxBackend } from "./sandbox/sandbox-backend.ts";
import { type SandboxEventBus, sandboxEventPublisher } from "./sandbox/sandbox-events.ts";
import { createTestEndpointLookup, recordingTestEndpoints } from "./sandbox/test-endpoints.ts";
import { createBusWebhookBackend, type NotifierRpcBus } from "./webhooks/webhook-backend.ts";

export interface GatewaySettings {
  bodyLimitBytes: number;
  /** Keys API key hashes, idempotency fingerprints and sandbox filing ids. */
  apiKeyPepper: string;
  sealingKey: SealingKey;
  redisKeyPrefix: string;
  apiKeyCacheTtlMs: number;
  defaultRateLimits: { perMinute: number; perDay: number };
  /** The validate-only routes' limit per account and mode (DEFAULT_VALIDATION_LIMITS when absent). */
  validationLimits?: RateLimits;
  trustProxyHops: number;
  /** Proves the MCP server's X-Dormant-Client-Address (auth/client-address.ts); unset: ignored. */
  mcpClientAddressSecret?: string | undefined;
  /** Key lookups waiting per over-limit address (auth/serial-lookups.ts' default otherwise). */
  authLookupQueueLimit?: number;
  filingRpcSubmitTimeoutMs?: number;
  filingRpcReadTimeoutMs?: number;
  /** How long an Idempotency-Key claim lasts unrefreshed (the store's default otherwise). */
  idempotencyClaimTtlMs?: number;
  /** Bytes per slice of a streamed document download (the live backend's default otherwise). */
  documentChunkBytes?: number;
  /** The least time between two writes of a key's last_used_at (a minute otherwise). */
  lastUsedIntervalMs?: number;
}

export interface GatewayAppDeps {
  settings: GatewaySettings;
  logger: Logger;
  db: GatewayDb;
  redis: Redis;
  /** A second Redis connection for SUBSCRIBE (the sandbox's endpoint lookups listen on it). */
  redisSubscriber?: Redis;
  bus: FilingRpcBus & BillingRpcBus & NotifierRpcBus & SandboxEventBus & { readinessCheck(): Promise<void> };
  metrics: ReturnType<typeof createMetricsRegistry>;
  /** False once shutdown began (readiness turns 503). */
  isAcceptingWork?: () => boolean;
}

export function createApp(deps: GatewayAppDeps): Express {
  const { settings, logger } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", settings.trustProxyHops);

  const hasher = createSecretHasher(settings.apiKeyPepper);
  const limiter = createRateLimiter({ redis: deps.redis, keyPrefix: settings.redisKeyPrefix });
  const verifier = createApiKeyVerifier({
    db: deps.db,
    hasher,
    cacheTtlMs: settings.apiKeyCacheTtlMs,
    defaultLimits: settings.defaultRateLimits,
  });
  const lastUsed = createLastUsedRecorder({
    db: deps.db,
    logger,
    ...(settings.lastUsedIntervalMs ? { intervalMs: settings.lastUsedIntervalMs } : {}),
  });
  const authenticate = createAuthMiddleware({
    verifier,
    limiter,
    logger,
    lastUsed,
    clientAddress: clientAddressOf(settings.mcpClientAddressSecret),
    ...(settings.authLookupQueueLimit !== undefined ? { lookupQueueLimit: settings.authLookupQueueLimit } : {}),
  });
  const rateLimit = createRateLimitMiddleware({ limiter });
  const validationLimit = createValidationLimitMiddleware({ limiter, limits: settings.validationLimits ?? DEFAULT_VALIDATION_LIMITS });
  const idempotency = createIdempotencyMiddleware({
    store: createIdempotencyStore({
      redis: deps.redis,
      keyPrefix: settings.redisKeyPrefix,
      ...(settings.idempotencyClaimTtlMs ? { claimTtlMs: settings.idempotencyClaimTtlMs } : {}),
    }),
    fingerprintSecret: settings.apiKeyPepper,
    logger,
  });
  const live = createBusFilingBackend({
    bus: deps.bus,
    sealingKey: settings.sealingKey,
    ...(settings.filingRpcSubmitTimeoutMs ? { submitTimeoutMs: settings.filingRpcSubmitTimeoutMs } : {}),
    ...(settings.filingRpcReadTimeoutMs ? { readTimeoutMs: settings.filingRpcReadTimeoutMs } : {}),
    ...(settings.documentChunkBytes ? { documentChunkBytes: settings.documentChunkBytes } : {}),
  });
  const testEndpoints = createTestEndpointLookup({
    redis: deps.redis,
    ...(deps.redisSubscriber ? { subscriber: deps.redisSubscriber } : {}),
    bus: deps.bus,
    keyPrefix: settings.redisKeyPrefix,
    logger,
  });
  const backends: FilingBackends = {
    live,
    // A test key's validation is derived by the filing service from the sandbox's made-up
    // registry (the caller's mode says so); nothing is stored or sent either way.
    // A test key's submit publishes its outcome event for the key's webhook endpoints, if any.
    test: createSandboxBackend({
      secret: settings.apiKeyPepper,
      validator: live,
      publishEvent: sandboxEventPublisher({ bus: deps.bus, endpoints: testEndpoints, logger }),
    }),
  };
  const routeDeps: RouteDeps = {
    backends,
    account: createBusAccountBackend({ bus: deps.bus }),
    webhooks: recordingTestEndpoints(createBusWebhookBackend({ bus: deps.bus }), testEndpoints),
  };
  const readiness: Record<string, ReadinessCheck> = {
    redis: async () => void (await deps.redis.ping()),
    postgres: async () => void (await deps.db.$queryRaw`SELECT 1`),
    rabbitmq: () => deps.bus.readinessCheck(),
  };

  const chains: Record<Route["kind"], RequestHandler[]> = {
    public: [],
    read: [authenticate, rateLimit],
    submit: [authenticate, rateLimit, ...jsonBody({ limitBytes: settings.bodyLimitBytes })],
    json: [authenticate, rateLimit, ...jsonBody({ limitBytes: settings.bodyLimitBytes })],
    check: [authenticate, rateLimit, validationLimit, ...jsonBody({ limitBytes: settings.bodyLimitBytes })],
    action: [authenticate, rateLimit],
  };
  const api = express.Router();
  api.get(openApiRoute.path, openApiRoute.handler(API_ROUTES));
  for (const route of API_ROUTES) {
    const spanRoute = `${API_PREFIX}${route.openapi.path}`;
    const nameSpan: RequestHandler = (_req, res, next) => {
      nameServerSpan(res, spanRoute);
      next();
    };
    const validate: RequestHandler = (req, _res, next) => {
      route.validate(req);
      next();
    };
    const handle: RequestHandler = (req, res) => route.handle(req, res, routeDeps);
    const afterValidation = route.kind === "submit" ? [idempotency, handle] : [handle];
    const chain = compose([nameSpan, ...chains[route.kind], validate, ...afterValidation]);
    const { method } = route.openapi;
    if (method === "get") api.get(route.expressPath, chain);
    else if (method === "post") api.post(route.expressPath, chain);
    else if (method === "delete") api.delete(route.expressPath, chain);
    else throw new Error(`${method.toUpperCase()} ${route.openapi.path}: app.ts mounts GET, POST and DELETE only`);
  }

  app.use(
    compose([
      traceHttpRequests(),
      requestIdMiddleware(),
      accessLog({ logger, metrics: createHttpMetrics(deps.metrics) }),
      securityHeaders(),
    ]),
  );
  // Express would answer OPTIONS itself (200 with Allow) on any known path; the API serves no
  // CORS preflight (its callers are servers), so OPTIONS is an unknown method like any other.
  app.options("/{*path}", notFound());
  app.use(API_PREFIX, api);
  app.use("/docs", docsRouter());
  app.use(
    createOpsRouter({
      registry: deps.metrics,
      checks: readiness,
      ...(deps.isAcceptingWork ? { isAcceptingWork: deps.isAcceptingWork } : {}),
    }),
  );
  app.use(notFound());
  app.use(errorHandler(logger));
  return app;
}
