import express, { type Response, type Router } from "express";
import { z } from "zod";
import { resetSimContext, type SimContext } from "../context.ts";
import { faultChangeSchema } from "../faults/faults.ts";
import { COMPANY_NUMBER } from "../company-number.ts";
import { COMPANY_TABLE } from "../sandbox/decision-table.ts";
import { SCENARIO_NAMES, SCENARIOS } from "../sandbox/scenarios.ts";
import { TARGETS } from "../state/received-log.ts";

const targetSchema = z.enum(["tax", "registry", "registry-data"]);

const receivedQuerySchema = z.object({
  target: targetSchema.optional(),
  company: z.string().optional(),
  kind: z.string().optional(),
  limit: z.coerce.number().int().positive().optional(),
  /** true: each entry with the request's body, secrets masked (null when none is kept). */
  body: z.enum(["true", "false"]).optional(),
});

const faultRequestSchema = faultChangeSchema.extend({ target: targetSchema }).superRefine((change, issues) => {
  if (change.edge403 !== undefined && change.target !== "tax") {
    issues.addIssue({ code: "custom", path: ["edge403"], message: "edge403 is HMRC's edge page: target tax only" });
  }
  if (change.loseAnswer !== undefined && change.target === "registry-data") {
    issues.addIssue({ code: "custom", path: ["loseAnswer"], message: "loseAnswer applies to submissions: target tax or registry" });
  }
  if (change.loseAnswerCount !== undefined && (change.loseAnswer === undefined || change.loseAnswer === null)) {
    issues.addIssue({ code: "custom", path: ["loseAnswerCount"], message: 'loseAnswerCount goes with loseAnswer "hold" or "close"' });
  }
});

const timingChangeSchema = z.strictObject({
  mode: z.enum(["fast", "realistic"]).optional(),
  outcomeDelayMs: z.number().int().min(0).optional(),
  pollIntervalSeconds: z.number().int().min(0).optional(),
  hangMs: z.number().int().positive().optional(),
});

const outcomeOverrideSchema = z.strictObject({ scenario: z.enum(SCENARIO_NAMES) });

function badRequest(res: Response, error: z.ZodError): void {
  res.status(400).json({
    error: "invalid request",
    issues: error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
  });
}

/**
 * Endpoints for tests and demos, away from the authorities' paths: what was received, fault
 * injection per target, timing, outcome overrides, reset and the effective configuration.
 */
export function controlRouter(context: SimContext): Router {
  const router = express.Router();
  router.use(express.json({ limit: "64kb" }));

  router.get("/config", (_req, res) => {
    const { config } = context;
    res.json({
      port: config.port,
      host: config.host,
      publicUrl: config.publicUrl ?? null,
      timing: context.timing.current,
      hangMs: context.hanging.hangMs,
      maxBodyBytes: config.maxBodyBytes,
      maxSubmissions: config.maxSubmissions,
      maxReceived: config.maxReceived,
      tax: { refusedCredential: config.tax.refusedCredential, businessRules: config.tax.businessRules ? "on" : "off" },
      registry: {
        presenterId: config.registry.presenterId,
        presenterAuthCode: "[REDACTED]",
        refusedCompanyAuthCode: config.registry.refusedCompanyAuthCode,
      },
      registryData: { apiKey: "[REDACTED]", rateLimitPer5Min: config.registryData.rateLimitPer5Min, asOf: config.registryData.asOf },
    });
  });

  router.get("/received", (req, res) => {
    const query = receivedQuerySchema.safeParse(req.query);
    if (!query.success) return badRequest(res, query.error);
    const { body, ...filter } = query.data;
    const items = body === "true" ? context.received.listWithBodies(filter) : context.received.list(filter);
    res.json({ count: items.length, items });
  });

  router.get("/faults", (_req, res) => {
    res.json(context.faults.all(TARGETS));
  });

  router.post("/faults", (req, res) => {
    const change = faultRequestSchema.safeParse(req.body);
    if (!change.success) return badRequest(res, change.error);
    const { target, ...faults } = change.data;
    res.json({ target, faults: context.faults.set(target, faults) });
  });

  router.delete("/faults", (req, res) => {
    const target = targetSchema.optional().safeParse(req.query.target);
    if (!target.success) return badRequest(res, target.error);
    context.faults.clear(target.data);
    res.json(context.faults.all(TARGETS));
  });

  router.get("/timing", (_req, res) => {
    res.json({ ...context.timing.current, hangMs: context.hanging.hangMs });
  });

  router.put("/timing", (req, res) => {
    const change = timingChangeSchema.safeParse(req.body);
    if (!change.success) return badRequest(res, change.error);
    const { hangMs, ...timing } = change.data;
    if (hangMs !== undefined) context.hanging.hangMs = hangMs;
    res.json({ ...context.timing.update(timing), hangMs: context.hanging.hangMs });
  });

  router.get("/outcomes", (_req, res) => {
    res.json({ table: COMPANY_TABLE, overrides: context.decisionTable.overrides(), default: "accepted", scenarios: SCENARIOS });
  });

  router.put("/outcomes/:company", (req, res) => {
    const company = req.params.company;
    if (!COMPANY_NUMBER.test(company)) {
      res.status(400).json({ error: "company must match ^[A-Z0-9]{8}$" });
      return;
    }
    const override = outcomeOverrideSchema.safeParse(req.body);
    if (!override.success) return badRequest(res, override.error);
    context.decisionTable.override(company, override.data.scenario);
    res.json({ company, scenario: override.data.scenario });
  });

  router.delete("/outcomes/:company", (req, res) => {
    const removed = context.decisionTable.clearOverride(req.params.company);
    res.status(removed ? 200 : 404).json({ company: req.params.company, removed });
  });

  router.post("/reset", (_req, res) => {
    resetSimContext(context);
    res.json({ reset: true });
  });

  return router;
}
