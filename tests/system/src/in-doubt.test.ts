import { afterAll, beforeAll, describe, it } from "vitest";
import { lostAnswerThenDisturb, startInDoubtSystem } from "./harness/in-doubt.ts";
import { lostAnswerAgents } from "./harness/lost-answer-agents.ts";
import type { RunningSystem } from "./harness/system.ts";

// In-doubt submissions, end to end: the authority takes a submission in and its answer never
// comes back (the simulator holds the connection open), and the app waiting for it is killed
// (kill -9) in that moment and started again. The client submits once and never retries. The
// platform must find out from the authority itself that it has the submission (the Transaction
// Engine's DATA_REQUEST, the registry's GetSubmissionStatus), never send it again, and take the
// filing to `accepted`, charged once. The same across a broker restart:
// in-doubt-broker.destructive.test.ts.
describe("a submission the authority took in, whose answer was lost with the app that waited for it", () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startInDoubtSystem("in_doubt");
  });

  afterAll(async () => {
    await system?.stop();
  });

  // The two submitters' cases touch different authorities, companies and processes: they run at
  // the same time, which halves the file's time (each case mostly waits for timeouts to lapse).
  it.concurrent("tax: the tax submitter is killed while the Transaction Engine holds the answer; the part is found by its TransactionID and accepted", async ({
    expect,
  }) => {
    const { final } = await lostAnswerThenDisturb(expect, system, "ct600", "72000001", "tax", "tax-submitter");
    expect(final).toMatchObject({ tax_status: "accepted", tax_correlation_id: expect.stringMatching(/^[0-9A-F]{32}$/) });
    const lookups = (await system.sim.received({ target: "tax" })).filter((entry) => entry.kind === "list");
    expect(lookups.length).toBeGreaterThan(0);
  });

  it.concurrent("registry: the registry submitter is killed while the gateway holds the answer; the accounts are found by their number and accepted", async ({
    expect,
  }) => {
    const { final } = await lostAnswerThenDisturb(expect, system, "accounts", "72000002", "registry", "registry-submitter");
    expect(final).toMatchObject({ registry_status: "accepted" });
  });

  it("tax: the filing service is killed while the Transaction Engine holds the answer; the part is found and accepted", async ({
    expect,
  }) => {
    const { final } = await lostAnswerThenDisturb(expect, system, "ct600", "72000003", "tax", "filing");
    expect(final).toMatchObject({ tax_status: "accepted" });
  });

  // Issue 25 section 2: nothing is killed, the answer is simply lost (the connection closed after
  // the authority took the submission in). The agent is told which filing is in doubt, and a retry
  // with the same key learns what became of it. Tax and registry at once (different simulators).
  it.concurrent("tax: agents told of the filing in doubt; one never retries, one retries at once and as Retry-After says, then gets 202 with it", async ({
    expect,
  }) => {
    await lostAnswerAgents(expect, system, "ct600", "tax", { patient: "72000011", retrying: "72000012" });
  });

  it.concurrent("registry: agents told of the filing in doubt; one never retries, one retries at once and as Retry-After says, then gets 202 with it", async ({
    expect,
  }) => {
    await lostAnswerAgents(expect, system, "accounts", "registry", { patient: "72000013", retrying: "72000014" });
  });
});
