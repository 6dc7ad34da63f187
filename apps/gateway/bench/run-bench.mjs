// npm run bench (via scripts/bench.mjs): sandbox CT600 submits through a self-started gateway
// against a bare Express JSON echo, same machine, same run, 32 connections, 10 s each; writes the
// figures and their ratio to docs/benchmarks.md. See apps/gateway/README.md "Benchmark".
// Two gateways are measured in turns: one traced as `npm start` runs it (the OpenTelemetry
// preload, default sampling, exporting OTLP/HTTP to a stand-in collector) and one untraced.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const gatewayDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(gatewayDir, "..", "..");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
/** Rounds of (echo, gateway): the machine is shared, so one round can be unlucky; the median round is reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The preload that starts OpenTelemetry in an app (packages/service-kit/src/tracing/register.ts). */
const TRACING_PRELOAD = "@dormant/service-kit/tracing/register";
const log = (message) => process.stderr.write(`[bench] ${message}\n`);

const BODY = JSON.stringify({
  company_number: "00000001",
  utr: "1234567890",
  period_end: "2024-03-31",
  declarant: { name: "Ada Lovelace", status: "Director" },
  credentials: { government_gateway_id: "BENCH-USER", government_gateway_password: "bench-password" },
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, init, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, init);
      if (response.status < 500) return response;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

/** Starts a child process; its output is kept only to show it if the child dies early. */
function start(name, args, env, cwd = gatewayDir) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  child.on("exit", (code) => {
    if (!stopping) log(`${name} exited early (${code}):\n${stderr}`);
  });
  return child;
}

let stopping = false;
function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
  });
}

function run({ url, headers, warmup }) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: "POST",
        connections: CONNECTIONS,
        duration: warmup ? WARMUP_S : DURATION_S,
        headers: { "content-type": "application/json", ...headers },
        body: BODY,
        // A fresh Idempotency-Key per request, as a client would send.
        requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, "idempotency-key": randomUUID() } }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on("error", reject);
  });
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

function figures(result) {
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.keys(result.statusCodeStats ?? {}).join(", "),
  };
}

async function main() {
  const runId = randomUUID().slice(0, 8);
  const [gatewayPort, tracedPort, echoPort, sinkPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = {
    ...process.env,
    NODE_ENV: "production",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
    HOST: "127.0.0.1",
    PORT: String(gatewayPort),
    GATEWAY_DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/dormant_bench_gateway",
    REDIS_KEY_PREFIX: `dormant-bench:${runId}:`,
    API_KEY_PEPPER: randomBytes(32).toString("hex"),
    CREDENTIALS_SEALING_KEY: randomBytes(32).toString("base64"),
  };

  log("creating a bench account with high rate limits (admin create-account)");
  const created = JSON.parse(
    execFileSync(
      process.execPath,
      [
        join(repoRoot, "scripts", "run-ts.mjs"),
        "scripts/admin.mjs",
        "create-account",
        "--name",
        `Bench ${runId}`,
        "--balance",
        "0",
        "--rate-per-minute",
        "10000000",
        "--rate-per-day",
        "1000000000",
      ],
      { cwd: repoRoot, env, stdio: ["ignore", "pipe", "inherit"] },
    ).toString(),
  );

  // The notifier answers the gateways' one question per account and minute (does it have test
  // webhook endpoints? the bench account has none, so no sandbox event is published), as under
  // `npm start`.
  const notifierDir = join(repoRoot, "apps", "notifier");
  const notifierEnv = {
    ...env,
    NOTIFIER_DATABASE_URL: process.env.BENCH_NOTIFIER_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/dormant_bench_notifier",
    NOTIFIER_PORT: String(await freePort()),
    NOTIFIER_SEALING_KEY: randomBytes(32).toString("base64"),
    OTEL_SDK_DISABLED: "true",
  };
  log("migrating the notifier's database and starting the notifier");
  execFileSync(process.execPath, ["--import", "tsx", "src/migrate.ts"], {
    cwd: notifierDir,
    env: notifierEnv,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const notifier = start("notifier", ["--import", "tsx", "src/main.ts"], notifierEnv, notifierDir);

  log(`starting the gateway on port ${gatewayPort} and the echo server on port ${echoPort}`);
  // BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the gateway.
  const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const untracedEnv = { ...env, OTEL_SDK_DISABLED: "true" };
  const gateway = start("gateway", [...nodeArgs, "--import", "tsx", "src/main.ts"], untracedEnv);
  // Traced as `npm start` runs it: the preload, the default sampler (unset here), OTLP export.
  const tracedEnv = { ...env, PORT: String(tracedPort), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}` };
  // Other OTEL_ variables of the bench's own environment reach it (e.g. OTEL_TRACES_SAMPLER_ARG).
  delete tracedEnv.OTEL_SDK_DISABLED;
  const traced = start("traced gateway", [...nodeArgs, "--import", "tsx", "--import", TRACING_PRELOAD, "src/main.ts"], tracedEnv);
  const echo = start("echo", ["bench/echo-server.mjs"], { ...process.env, PORT: String(echoPort) });
  const sink = start("otlp sink", ["bench/otlp-sink.mjs"], { ...process.env, PORT: String(sinkPort) });
  try {
    await waitFor(`http://127.0.0.1:${gatewayPort}/api/v1/health`, {}, 60);
    await waitFor(`http://127.0.0.1:${tracedPort}/api/v1/health`, {}, 60);
    await waitFor(`http://127.0.0.1:${notifierEnv.NOTIFIER_PORT}/readyz`, {}, 60);
    await waitFor(`http://127.0.0.1:${echoPort}/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }, 30);
    const target = {
      gateway: { url: `http://127.0.0.1:${gatewayPort}/api/v1/filings/ct600`, headers: { "x-api-key": created.test_key } },
      traced: { url: `http://127.0.0.1:${tracedPort}/api/v1/filings/ct600`, headers: { "x-api-key": created.test_key } },
      echo: { url: `http://127.0.0.1:${echoPort}/echo`, headers: {} },
    };
    for (const name of ["gateway", "traced"]) {
      const probe = await fetch(target[name].url, {
        method: "POST",
        headers: { ...target[name].headers, "content-type": "application/json", "idempotency-key": `probe-${name}` },
        body: BODY,
      });
      if (probe.status !== 202) throw new Error(`a sandbox submit to the ${name} gateway answered ${probe.status}: ${await probe.text()}`);
    }

    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const results = {};
      for (const name of ["echo", "gateway", "traced"]) {
        log(`round ${round}/${ROUNDS}, ${name}: warming up ${WARMUP_S} s, then measuring ${DURATION_S} s with ${CONNECTIONS} connections`);
        await run({ ...target[name], warmup: true });
        const pid = { echo: echo.pid, gateway: gateway.pid, traced: traced.pid }[name];
        const cpuBefore = cpuMsOf(pid);
        results[name] = figures(await run({ ...target[name], warmup: false }));
        const cpuAfter = cpuMsOf(pid);
        // The server's own CPU per request: less moved by other work on a shared machine than requests/s.
        results[name].cpuUsPerRequest =
          cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / results[name].total;
        log(`${name}: ${results[name].requestsPerSecond.toFixed(0)} req/s, p50 ${results[name].p50} ms, p99 ${results[name].p99} ms`);
        if (results[name].non2xx > 0 || results[name].errors > 0) {
          throw new Error(
            `${name}: ${results[name].non2xx} non-2xx answers (statuses seen: ${results[name].statusCodes}) and ${results[name].errors} errors: the figures are not valid`,
          );
        }
      }
      rounds.push({
        ...results,
        ratio: results.gateway.requestsPerSecond / results.echo.requestsPerSecond,
        tracedRatio: results.traced.requestsPerSecond / results.echo.requestsPerSecond,
      });
    }
    writeReport(rounds);
  } finally {
    stopping = true;
    await Promise.all([stop(gateway), stop(traced), stop(echo), stop(sink), stop(notifier)]);
  }
}

function writeReport(rounds) {
  // The median round by the traced ratio: tracing on at its default sampling is what runs.
  const median = [...rounds].sort((a, b) => a.tracedRatio - b.tracedRatio)[Math.floor(rounds.length / 2)];
  const { echo, gateway, traced, ratio, tracedRatio } = median;
  const goal = tracedRatio >= 0.5 ? "met" : "NOT met";
  const us = (r) => (r.cpuUsPerRequest === undefined ? "n/a" : `${r.cpuUsPerRequest.toFixed(0)} µs`);
  const row = (name, r) => `| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.total} |`;
  const cpu = cpus();
  const text = `# Benchmarks

Written by \`npm run bench\` (scripts/bench.mjs -> apps/gateway/bench/run-bench.mjs); run it again to refresh.

## Sandbox CT600 submit vs a bare Express JSON echo

Median round (by ratio) of ${rounds.length}:

| target | requests/s | p50 latency (ms) | p99 latency (ms) | requests |
|---|---|---|---|---|
${row("gateway, traced (default sampling, OTLP export): POST /api/v1/filings/ct600 (test key)", traced)}
${row("gateway, untraced: the same", gateway)}
${row("bare Express JSON echo", echo)}

**Ratio (gateway / echo) with tracing on: ${tracedRatio.toFixed(2)}**, without: ${ratio.toFixed(2)} — goal: at least 0.50 with tracing on, ${goal}.

Server CPU per request (median round; user + system time of the server process over the measured 10 s, divided by its requests): gateway traced ${us(traced)}, untraced ${us(gateway)}, echo ${us(echo)}.

Every round (requests/s): ${rounds.map((r, i) => `${i + 1}: echo ${r.echo.requestsPerSecond.toFixed(0)}, gateway untraced ${r.gateway.requestsPerSecond.toFixed(0)} (ratio ${r.ratio.toFixed(2)}), traced ${r.traced.requestsPerSecond.toFixed(0)} (ratio ${r.tracedRatio.toFixed(2)}; CPU per request traced ${us(r.traced)}, untraced ${us(r.gateway)})`).join("; ")}.

- Tracing (docs/operations/tracing.md): the traced gateway starts with the OpenTelemetry preload (\`--import ${TRACING_PRELOAD}\`) as \`npm start\` runs it, at the default sampling (\`parentbased_traceidratio\`, 0.1; the load sends no traceparent), exporting OTLP/HTTP (protobuf) in batches to a stand-in collector on the same machine (bench/otlp-sink.mjs, which reads and discards). The untraced one runs without the preload and with \`OTEL_SDK_DISABLED=true\`. Both run at the same time, measured in turns.

- Load: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per target after a ${WARMUP_S} s warm-up, the same CT600 body (${Buffer.byteLength(BODY)} bytes) and a fresh Idempotency-Key per request; every answer was 2xx (202 / 200).
- Same machine, same run, alternating: each round measures the echo, then the untraced gateway, then the traced one, each in its own Node.js process on 127.0.0.1 (autocannon runs in another process on the same cores).
- The gateway runs as in production (\`NODE_ENV=production\`, JSON access log at level \`${process.env.BENCH_LOG_LEVEL ?? "info"}\`), self-started on a free port with its own database (\`dormant_bench_gateway\`) and Redis key prefix, so a running development stack is not disturbed. Each request is authenticated (key cache, constant-time hash check), counted against the key's per-minute and per-day limits in Redis, validated, and answered by the stateless sandbox. The notifier runs beside it (its own database, \`dormant_bench_notifier\`), as under \`npm start\`: the gateway asks it once per account and minute whether the account has test webhook endpoints; the bench account has none, so no sandbox event is published (apps/gateway/README.md, "Sandbox events").
- Machine: ${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node.js ${process.version}, load average at the end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")} (the machine is shared: figures move with its load).
- Run at ${new Date().toISOString()}.
`;
  // Keep the other benchmarks' sections (the live benchmark's, ...): each starts with a marker.
  const path = join(repoRoot, "docs", "benchmarks.md");
  const previous = existsSync(path) ? readFileSync(path, "utf8") : "";
  const others = previous.indexOf("<!-- ");
  writeFileSync(path, others >= 0 ? `${text}\n${previous.slice(others)}` : text);
  log(`wrote docs/benchmarks.md (median ratio ${ratio.toFixed(2)})`);
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
