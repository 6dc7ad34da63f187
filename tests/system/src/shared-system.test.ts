import { afterAll, beforeAll } from "vitest";
import { billingFeesSuite } from "./shared/billing-fees.ts";
import { clientSuite } from "./shared/client.ts";
import { deadlinesSuite } from "./shared/deadlines.ts";
import { duplicateFilingsSuite } from "./shared/duplicate-filings.ts";
import { mcpSuite } from "./shared/mcp.ts";
import { validateSuite } from "./shared/validate.ts";
import { webhookFairnessSuite } from "./shared/webhook-fairness.ts";
import { webhooksSuite } from "./shared/webhooks.ts";
import { startSystem, type RunningSystem } from "./harness/system.ts";

// The suites that need the system only as `npm start` runs it share one system, one suite after
// the other: a system takes about 20 s of two cores to start and a few to stop, which each suite
// used to pay. A suite stays isolated by what it owns: its own accounts (so its own filings,
// keys, balance and webhook endpoints), its own companies, or the simulator's log read from the
// sequence number it noted when it began. validate-only submits go first: they assert that
// nothing reached an authority while they ran, which earlier suites' polls would contradict.
// The suites that need other settings, or kill processes, start systems of their own.
let system: RunningSystem | undefined;

beforeAll(async () => {
  // Short webhook retries for the webhooks suite (a listener answering 500 twice is retried in 3 s).
  system = await startSystem({ label: "shared", env: { notifier: { WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,2,5" } } });
}, 180_000);

afterAll(async () => {
  const report = system?.crashReport();
  await system?.stop();
  if (report) throw new Error(report);
});

const shared = (): RunningSystem => {
  if (!system) throw new Error("the shared system did not start");
  return system;
};

validateSuite(shared);
deadlinesSuite(shared);
billingFeesSuite(shared);
duplicateFilingsSuite(shared);
clientSuite(shared);
webhooksSuite(shared);
mcpSuite(shared);
// Last: it leaves attempts to silent endpoints behind (ended and cancelled in its afterAll).
webhookFairnessSuite(shared);
