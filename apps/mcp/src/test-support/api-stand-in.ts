import { createServer, type Server } from "node:http";

export interface ApiStandIn {
  /** `http://127.0.0.1:port/api/v1` */
  url: string;
  /** The API keys of the requests it received, in order. */
  keysSeen: string[];
  /** The paths of the requests it received (health checks aside), in order. */
  pathsSeen: string[];
  /** Their X-Dormant-Client-Address headers (undefined: none), in order. */
  callerAddressesSeen: Array<string | undefined>;
  close(): Promise<void>;
}

/**
 * A stand-in of the public API for the HTTP endpoint's own tests: `/api/v1/health`,
 * `GET /api/v1/account` answering 200 for `goodKeys`, `GET /api/v1/filings/{id}` answering a
 * CT600 filing that stays `submitted` for them, and the API's 401 envelope for any other key.
 */
export async function startApiStandIn(goodKeys: readonly string[]): Promise<ApiStandIn> {
  const keysSeen: string[] = [];
  const pathsSeen: string[] = [];
  const callerAddressesSeen: Array<string | undefined> = [];
  const server: Server = createServer((req, res) => {
    const key = String(req.headers["x-api-key"] ?? "");
    res.setHeader("Content-Type", "application/json");
    if (req.url === "/api/v1/health") return void res.end(JSON.stringify({ status: "healthy" }));
    keysSeen.push(key);
    pathsSeen.push(req.url ?? "");
    const callerAddress = req.headers["x-dormant-client-address"];
    callerAddressesSeen.push(Array.isArray(callerAddress) ? callerAddress[0] : callerAddress);
    const filingId = /^\/api\/v1\/filings\/(fil_\w+)$/.exec(req.url ?? "")?.[1];
    if (filingId && goodKeys.includes(key)) {
      const filing = { filing_id: filingId, type: "ct600", status: "submitted", company_number: "00000001" };
      return void res.end(JSON.stringify({ success: true, data: filing }));
    }
    if (req.url === "/api/v1/account" && goodKeys.includes(key)) {
      return void res.end(
        JSON.stringify({ success: true, data: { account_id: "acc_1", balance: "100.00", held: "0.00", available: "100.00" } }),
      );
    }
    res.statusCode = 401;
    res.end(JSON.stringify({ success: false, error: { code: "INVALID_KEY", message: "The API key is not valid." }, request_id: "req_x" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    keysSeen,
    pathsSeen,
    callerAddressesSeen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
