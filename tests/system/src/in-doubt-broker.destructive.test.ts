import { afterAll, beforeAll, describe, it } from "vitest";
import { startBroker } from "./harness/broker.ts";
import { lostAnswerThenDisturb, startInDoubtSystem } from "./harness/in-doubt.ts";
import type { RunningSystem } from "./harness/system.ts";

// in-doubt.test.ts across a RabbitMQ restart instead of a killed app: the registry holds the
// answer to an accounts submission while the broker restarts. A broker restart drops every
// vhost's connections, so this runs in the destructive project, alone.
describe("a submission the authority took in, whose answer was lost across a broker restart", () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startInDoubtSystem("in_doubt_broker");
  });

  afterAll(async () => {
    // Whatever happened, the broker is left running for everything else on this machine.
    await startBroker().catch(() => undefined);
    await system?.stop();
  });

  it("registry: the broker restarts while the gateway holds the answer; the accounts are found and accepted", async ({ expect }) => {
    const { final } = await lostAnswerThenDisturb(expect, system, "accounts", "72000004", "registry", "broker");
    expect(final).toMatchObject({ registry_status: "accepted" });
  });
});
