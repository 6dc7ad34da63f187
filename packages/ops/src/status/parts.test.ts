import { describe, expect, it } from "vitest";
import { appTargets } from "./app-targets.ts";
import { samplesOf } from "./prometheus-text.ts";
import { renderTable } from "./render-table.ts";
import { problemsOf, type StatusReport } from "./report.ts";
import { watchStatus } from "./watch.ts";

// The pure parts of `admin status`; the command itself against real servers: status.test.ts.
describe("app targets", () => {
  const apps = [{ name: "filing", opsPort: 4301 }, { name: "tool-without-ops" }];
  it("defaults to every discovered app with an ops port, on this machine", () => {
    expect(appTargets(apps, undefined)).toEqual([{ name: "filing", url: "http://127.0.0.1:4301" }]);
  });
  it("takes OPS_URLS as the whole list when set", () => {
    expect(appTargets(apps, " filing=http://filing:4301/ , gateway=https://api.example.com ")).toEqual([
      { name: "filing", url: "http://filing:4301" },
      { name: "gateway", url: "https://api.example.com" },
    ]);
    expect(() => appTargets(apps, "filing")).toThrow(/not name=url/);
    expect(() => appTargets(apps, "filing=not a url")).toThrow(/not name=url/);
  });
});

describe("prometheus text", () => {
  it("reads the samples of one metric with their labels, skipping comments and look-alikes", () => {
    const text = [
      "# HELP authority_breaker_state State of each authority breaker",
      "# TYPE authority_breaker_state gauge",
      'authority_breaker_state{breaker="tax",service="tax-submitter"} 2',
      'authority_breaker_state{breaker="we\\"ird",service="x"} 0',
      "authority_breaker_state_extra 5",
      'authority_breaker_opened_total{breaker="tax"} 3',
    ].join("\n");
    expect(samplesOf(text, "authority_breaker_state")).toEqual([
      { name: "authority_breaker_state", labels: { breaker: "tax", service: "tax-submitter" }, value: 2 },
      { name: "authority_breaker_state", labels: { breaker: 'we"ird', service: "x" }, value: 0 },
    ]);
  });
});

describe("problems", () => {
  const healthy = {
    as_of: "2026-11-27T12:00:00.000Z",
    queues: {
      work: [{ name: "billing.events", messages: 3, consumers: 1 }],
      wait: [{ name: "billing.events.wait.1s", work_queue: "billing.events", messages: 9, consumers: 0 }],
      dead_letter: [{ name: "billing.events.dlq", work_queue: "billing.events", messages: 0, consumers: 0 }],
      rpc: [{ name: "nobody.rpc", messages: 0, consumers: 0, missing: true as const }],
    },
    apps: [{ name: "filing", url: "http://x", status: "ready" as const, checks: { database: "ok" } }],
    breakers: [{ app: "tax-submitter", breaker: "tax", state: "half_open" as const }],
    filings: {},
  };
  it("none for a healthy system (work and wait depth, half-open breakers and missing RPC queues are not problems)", () => {
    expect(problemsOf(healthy)).toEqual([]);
  });
  it("a parked message, an app not ready or unreachable, an open breaker, a part unreadable", () => {
    expect(
      problemsOf({
        ...healthy,
        queues: {
          ...healthy.queues,
          dead_letter: [{ name: "billing.events.dlq", work_queue: "billing.events", messages: 2, consumers: 0 }],
        },
        apps: [
          { name: "filing", url: "http://x", status: "not_ready", checks: { database: "connection refused", bus: "ok" } },
          { name: "gateway", url: "http://y", status: "unreachable", error: "ECONNREFUSED" },
        ],
        breakers: [{ app: "tax-submitter", breaker: "tax", state: "open" }],
        filings: { error: "admin filing-activity exited 1" },
      }),
    ).toEqual([
      "dead-letter queue billing.events.dlq holds 2 message(s)",
      "app filing is not ready (database: connection refused)",
      "app gateway is unreachable (ECONNREFUSED)",
      "breaker tax of tax-submitter is open",
      "the filing activity could not be read: admin filing-activity exited 1",
    ]);
    expect(problemsOf({ ...healthy, queues: { error: "admin queues exited 1" } })).toEqual([
      "the queues could not be read: admin queues exited 1",
    ]);
  });
});

describe("the --watch table and loop", () => {
  const report: StatusReport = {
    as_of: "2026-11-27T12:00:00.000Z",
    healthy: false,
    problems: ["breaker tax of tax-submitter is open"],
    queues: {
      work: [{ name: "billing.events", messages: 3, consumers: 1 }],
      wait: [
        { name: "billing.events.wait.1s", work_queue: "billing.events", messages: 2, consumers: 0 },
        { name: "billing.events.wait.5s", work_queue: "billing.events", messages: 5, consumers: 0 },
      ],
      dead_letter: [{ name: "billing.events.dlq", work_queue: "billing.events", messages: 0, consumers: 0 }],
      rpc: [{ name: "filing.rpc", messages: 0, consumers: 0, missing: true }],
    },
    apps: [{ name: "filing", url: "http://127.0.0.1:4301", status: "ready" }],
    breakers: [{ app: "tax-submitter", breaker: "tax", state: "open" }],
    filings: {
      submitted: { last_5m: 1, last_60m: 9 },
      accepted: { last_5m: 0, last_60m: 7 },
      rejected: { last_5m: 0, last_60m: 1 },
      errored: { last_5m: 0, last_60m: 0 },
      oldest_unfinished_age_seconds: 42,
      oldest_unfinished: [],
    },
  };

  it("draws problems first, then queues (wait queues summed), apps, breakers and filings", () => {
    const table = renderTable(report);
    expect(table.split("\n").slice(0, 2)).toEqual([
      "dormant status 2026-11-27T12:00:00.000Z  1 PROBLEM(S)",
      "  ! breaker tax of tax-submitter is open",
    ]);
    expect(table).toMatch(/^billing\.events {2,}work {2,}3 {2,}1$/m);
    expect(table).toMatch(/^filing\.rpc {2,}rpc {2,}- {2,}0$/m);
    expect(table).toMatch(/^\(2 wait queues\) {2,}wait {2,}7 {2,}-$/m);
    expect(table).toMatch(/^tax {2,}tax-submitter {2,}open$/m);
    expect(table).toMatch(/^submitted {2,}1 {2,}9$/m);
    expect(table).toContain("oldest filing not yet final: 42 s");
  });

  it("clears the screen before each drawing and stops when told, between drawings", async () => {
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const drawn: string[] = [];
    let gathered = 0;
    await watchStatus({
      gather: async () => {
        gathered++;
        if (gathered === 3) stop();
        return report;
      },
      render: () => "table\n",
      write: (text) => void drawn.push(text),
      intervalMs: 5,
      stopped,
    });
    expect(drawn).toEqual(["\x1b[2J\x1b[Htable\n", "\x1b[2J\x1b[Htable\n"]);
  });
});
