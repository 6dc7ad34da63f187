import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { connectBus } from "@dormant/bus";
import { FILING_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix, createTestVhost, getFreePort, waitFor, type TestDatabase, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "./admin/accounts.ts";
import { createGatewayDb } from "./db/client.ts";
import { createGatewayTestDatabase } from "./test-support/test-database.ts";
import { createSecretHasher } from "./keys/hash.ts";
import { ct600Body } from "./test-support/requests.ts";
import { TEST_PEPPER } from "./test-support/test-gateway.ts";

const NOW = "2024-05-01T10:00:00.000Z";

describe("the gateway process", () => {
  let vhost: TestVhost;
  let database: TestDatabase;
  let child: ChildProcess;
  let port: number;
  let liveKey: string;
  const redis = createTestRedisPrefix("gw_main");

  beforeAll(async () => {
    [vhost, database, port] = await Promise.all([createTestVhost("gw_main"), createGatewayTestDatabase("main"), getFreePort()]);
    const db = createGatewayDb(database.url);
    liveKey = (await createAccount(db, { name: "Main Ltd", openingBalancePence: 0n }, { hasher: createSecretHasher(TEST_PEPPER) })).liveKey;
    await db.$disconnect();
    child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./main.ts", import.meta.url))], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        PORT: String(port),
        HOST: "127.0.0.1",
        GATEWAY_DATABASE_URL: database.url,
        REDIS_KEY_PREFIX: redis.prefix,
        AMQP_URL: vhost.url,
        API_KEY_PEPPER: TEST_PEPPER,
      },
      stdio: "ignore",
    });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, { timeoutMs: 30_000, what: "the gateway to be ready" });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    await redis.cleanup();
    await database?.drop();
    await vhost?.delete();
  });

  it("on SIGTERM stops accepting connections, finishes the request in flight, and exits 0", async () => {
    // A slow filing service: the submit is still in flight when the signal arrives.
    const server = await connectBus({
      url: vhost.url,
      service: "filing-test",
      topology: PLATFORM_TOPOLOGY,
      messages: {},
      rpc: FILING_RPC_CATALOG,
      logger: createLogger({ service: "t", level: "silent" }),
    });
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const serving = await server.rpcServe("filing.rpc", {
      "filing.submit_ct600": async () => {
        received();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return {
          filing_id: "fil_slow1",
          status: "submitted" as const,
          tax_correlation_id: "C1",
          period_split: false,
          submitted_at: NOW,
          derived_values: {
            company_name: "SLOW LTD",
            period_start: "2023-04-01",
            is_first_year: false,
            declarant_name: "A B",
            declarant_status: "Director",
          },
        };
      },
      "filing.submit_accounts": async () => {
        throw new Error("not used");
      },
      "filing.get": async () => {
        throw new Error("not used");
      },
      "filing.list": async () => {
        throw new Error("not used");
      },
      "filing.list_documents": async () => {
        throw new Error("not used");
      },
      "filing.get_document": async () => {
        throw new Error("not used");
      },
      "filing.get_document_chunk": async () => {
        throw new Error("not used");
      },
      "filing.deadlines": async () => {
        throw new Error("not used");
      },
      "filing.validate_ct600": async () => {
        throw new Error("not used");
      },
      "filing.validate_accounts": async () => {
        throw new Error("not used");
      },
    });
    try {
      const inFlight = fetch(`http://127.0.0.1:${port}/api/v1/filings/ct600`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": liveKey, "idempotency-key": "main-test-1" },
        body: JSON.stringify(ct600Body()),
      });
      await arrived;
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      const response = await inFlight;
      expect(response.status).toBe(202);
      expect(((await response.json()) as { data: { filing_id: string } }).data.filing_id).toBe("fil_slow1");
      expect(await exited).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
    } finally {
      await serving.stop();
      await server.close();
    }
  });
});
