// The machine's yardstick for the live benchmark: the CPU the bare Express JSON echo of the
// sandbox benchmark (apps/gateway/bench/echo-server.mjs) spends per request, measured in the same
// run, so that the CPU per filing can be said in echo-requests and machines of different speed
// compare.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { repoRoot } from "../src/harness/paths.ts";
import { cpuTicksOf, TICKS_PER_SECOND } from "./process-cpu.ts";

/** The sandbox benchmark's CT600 body (apps/gateway/bench/run-bench.mjs). */
const BODY = JSON.stringify({
  company_number: "00000001",
  utr: "1234567890",
  period_end: "2024-03-31",
  declarant: { name: "Ada Lovelace", status: "Director" },
  credentials: { government_gateway_id: "BENCH-USER", government_gateway_password: "bench-password" },
});

export interface EchoCpu {
  requests: number;
  cpuSeconds: number;
  /** CPU of the echo process per request, microseconds. */
  usPerRequest: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Keeps `connections` keep-alive requests in flight until `until` (Date.now()); answers how many completed. */
async function load(port: number, connections: number, until: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let done = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port, path: "/echo", method: "POST", agent, headers: { "content-type": "application/json" } },
        (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode === 200) done += 1;
            resolve();
          });
        },
      );
      req.on("error", reject);
      req.end(BODY);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) await one();
    }),
  );
  agent.destroy();
  return done;
}

/** A started echo server; `measure` loads it for `seconds` (after a warm-up) and answers its CPU per request. */
export class EchoServer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly port: number,
  ) {}

  static async start(): Promise<EchoServer> {
    const port = await freePort();
    const gatewayDir = join(repoRoot, "apps", "gateway");
    const child = spawn(process.execPath, [join("bench", "echo-server.mjs")], {
      cwd: gatewayDir,
      env: { ...process.env, PORT: String(port), NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
    if (!chunk.toString().includes("listening")) throw new Error(`the echo server did not start: ${chunk.toString()}`);
    child.stdout!.resume();
    return new EchoServer(child, port);
  }

  async measure(seconds = 3, connections = 32, warmUpSeconds = 1): Promise<EchoCpu> {
    const pid = this.child.pid!;
    await load(this.port, connections, Date.now() + warmUpSeconds * 1000);
    const before = cpuTicksOf(pid);
    const requests = await load(this.port, connections, Date.now() + seconds * 1000);
    const cpuSeconds = (cpuTicksOf(pid) - before) / TICKS_PER_SECOND;
    return { requests, cpuSeconds, usPerRequest: (cpuSeconds * 1e6) / Math.max(1, requests) };
  }

  async stop(): Promise<void> {
    const exited = once(this.child, "exit");
    this.child.kill("SIGTERM");
    await exited;
  }
}
