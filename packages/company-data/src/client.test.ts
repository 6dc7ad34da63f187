import { readFileSync } from "node:fs";
import { rejectionOf } from "@dormant/testing";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createRegistryDataClient, type RegistryDataClientOptions } from "./client.ts";
import { CompanyNotFoundError, RegistryUnavailableError } from "./errors.ts";

// A stand-in for the third-party registry: a real HTTP server on an ephemeral port serving
// fixture JSON, so the client is exercised over real sockets.

const fixtureText = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface SeenRequest {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  accept: string | undefined;
}

const registryRoutes: Handler = (req, res) => {
  const json = (status: number, body: string) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  };
  switch (req.url) {
    case "/company/00000001":
      return json(200, fixtureText("company-profile.json"));
    case "/company/00000001/officers":
      return json(200, fixtureText("officers.json"));
    case "/company/00000001/filing-history?category=accounts":
      return json(200, fixtureText("filing-history.json"));
    default:
      return json(404, JSON.stringify({ errors: [{ error: "company-profile-not-found", type: "ch:service" }] }));
  }
};

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: SeenRequest[];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({
      method: req.method,
      url: req.url,
      authorization: req.headers.authorization,
      accept: req.headers.accept,
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  handler = registryRoutes;
  seen = [];
});

const client = (overrides: Partial<RegistryDataClientOptions> = {}) =>
  createRegistryDataClient({ baseUrl, apiKey: "test-registry-key", timeoutMs: 2000, ...overrides });

async function unavailable(promise: Promise<unknown>): Promise<RegistryUnavailableError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(RegistryUnavailableError);
  return error as RegistryUnavailableError;
}

describe("registry data client: answers", () => {
  it("gets a company profile with basic auth (key as user name, empty password)", async () => {
    const profile = await client().getCompany("00000001");
    expect(profile.company_name).toBe("LOVELACE ENGINES LIMITED");
    expect(profile.accounts?.last_accounts?.period_end_on).toBe("2024-03-31");
    expect(profile).not.toHaveProperty("links");
    expect(seen).toEqual([
      {
        method: "GET",
        url: "/company/00000001",
        authorization: `Basic ${Buffer.from("test-registry-key:").toString("base64")}`,
        accept: "application/json",
      },
    ]);
  });

  it("gets the officers", async () => {
    const officers = await client().getOfficers("00000001");
    expect(officers.items.map((o) => o.name)).toEqual([
      "BABBAGE, Charles",
      "SOMERVILLE, Mary",
      "LOVELACE, Augusta Ada",
      "TABULATING SECRETARIES LIMITED",
    ]);
    expect(seen[0]?.url).toBe("/company/00000001/officers");
  });

  it("gets the accounts filing history", async () => {
    const history = await client().getFilingHistory("00000001", { category: "accounts" });
    expect(history.items.map((i) => i.type)).toEqual(["AA", "AA", "AA01"]);
    expect(seen[0]?.url).toBe("/company/00000001/filing-history?category=accounts");
  });

  it("keeps a path prefix of the base URL, with or without a trailing slash", async () => {
    handler = (req, res) => {
      req.url = req.url?.replace(/^\/registry/, "");
      registryRoutes(req, res);
    };
    await client({ baseUrl: `${baseUrl}/registry/` }).getCompany("00000001");
    await client({ baseUrl: `${baseUrl}/registry` }).getCompany("00000001");
    expect(seen.map((s) => s.url)).toEqual(["/registry/company/00000001", "/registry/company/00000001"]);
  });

  it("encodes the company number so it cannot change the path", async () => {
    const error = await rejectionOf(client().getCompany("../../x?y"));
    expect(error).toBeInstanceOf(CompanyNotFoundError);
    expect(seen[0]?.url).toBe("/company/..%2F..%2Fx%3Fy");
  });

  it("uses the fetch given in the options", async () => {
    const calls: string[] = [];
    const countingFetch: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    await client({ fetch: countingFetch }).getCompany("00000001");
    expect(calls).toEqual([`${baseUrl}/company/00000001`]);
  });
});

describe("registry data client: failures", () => {
  it("turns 404 into CompanyNotFoundError", async () => {
    const error = await rejectionOf(client().getCompany("99999999"));
    expect(error).toBeInstanceOf(CompanyNotFoundError);
    expect(error).toMatchObject({ companyNumber: "99999999", code: "COMPANY_NOT_FOUND", retryable: false });
  });

  it("turns 429 into a retryable rate-limited error with Retry-After seconds", async () => {
    handler = (_req, res) => {
      res.writeHead(429, { "retry-after": "120" });
      res.end("slow down");
    };
    const error = await unavailable(client().getOfficers("00000001"));
    expect(error).toMatchObject({
      code: "REGISTRY_UNAVAILABLE",
      reason: "rate-limited",
      retryable: true,
      status: 429,
      retryAfterSeconds: 120,
    });
  });

  it("reads an HTTP-date Retry-After on a 503", async () => {
    handler = (_req, res) => {
      res.writeHead(503, { "retry-after": new Date(Date.now() + 90_000).toUTCString() });
      res.end();
    };
    const error = await unavailable(client().getCompany("00000001"));
    expect(error.reason).toBe("server-error");
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(85);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(91);
  });

  it("gives no Retry-After when the registry sends none", async () => {
    handler = (_req, res) => {
      res.writeHead(500);
      res.end("boom");
    };
    const error = await unavailable(client().getCompany("00000001"));
    expect(error).toMatchObject({ reason: "server-error", status: 500, retryAfterSeconds: undefined });
  });

  it.each([
    [401, "unauthorised", false],
    [403, "unauthorised", false],
    [400, "unexpected-status", false],
    [502, "server-error", true],
  ] as const)("turns HTTP %i into %s (retryable %s)", async (status, reason, retryable) => {
    handler = (_req, res) => {
      res.writeHead(status);
      res.end();
    };
    const error = await unavailable(client().getFilingHistory("00000001", { category: "accounts" }));
    expect(error).toMatchObject({ reason, retryable, status });
  });

  it("never puts the API key in an error message", async () => {
    handler = (_req, res) => {
      res.writeHead(401);
      res.end();
    };
    const error = await unavailable(client({ apiKey: "very-secret-key" }).getCompany("00000001"));
    expect(error.message).not.toContain("very-secret-key");
    expect(error.message).not.toContain(Buffer.from("very-secret-key:").toString("base64"));
  });

  it("treats a body that is not JSON as a bad response", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>maintenance</html>");
    };
    const error = await unavailable(client().getCompany("00000001"));
    expect(error).toMatchObject({ reason: "bad-response", retryable: true, status: 200 });
    expect(error.message).toContain("bad response");
  });

  it("treats JSON that does not match the schema as a bad response, naming the field", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ company_name: "X LIMITED", company_number: "00000001", type: "ltd" }));
    };
    const error = await unavailable(client().getCompany("00000001"));
    expect(error.reason).toBe("bad-response");
    expect(error.cause).toBeInstanceOf(ZodError);
    expect(error.message).toContain("date_of_creation");
  });

  it("times out when the registry does not answer", async () => {
    handler = () => {
      // never answers
    };
    const started = performance.now();
    const error = await unavailable(client({ timeoutMs: 150 }).getCompany("00000001"));
    expect(error).toMatchObject({ reason: "timeout", retryable: true });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("times out when the body stalls half-way", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"company_name": "STALLED');
    };
    const error = await unavailable(client({ timeoutMs: 200 }).getCompany("00000001"));
    expect(error).toMatchObject({ reason: "timeout", status: 200 });
  });

  it("reports a refused connection as a network failure", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await unavailable(client({ baseUrl: `http://127.0.0.1:${port}` }).getCompany("00000001"));
    expect(error).toMatchObject({ reason: "network", retryable: true, status: undefined });
  });

  it("reports a connection dropped mid-answer as a network failure", async () => {
    handler = (req) => {
      req.socket.destroy();
    };
    const error = await unavailable(client().getCompany("00000001"));
    expect(error.reason).toBe("network");
  });

  it("stops when the caller aborts", async () => {
    handler = () => {
      // never answers
    };
    const controller = new AbortController();
    const pending = client({ timeoutMs: 5000 }).getOfficers("00000001", { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await unavailable(pending);
    expect(error.reason).toBe("aborted");
  });
});

describe("registry data client: configuration", () => {
  it.each([
    [{ baseUrl: "not a url" }, TypeError],
    [{ baseUrl: "ftp://registry.example" }, TypeError],
    [{ baseUrl: "http://registry.example/?x=1" }, TypeError],
    [{ apiKey: "" }, TypeError],
    [{ timeoutMs: 0 }, RangeError],
    [{ timeoutMs: 1.5 }, RangeError],
  ])("rejects %j at creation", (bad, errorType) => {
    expect(() => client(bad)).toThrow(errorType);
  });
});
