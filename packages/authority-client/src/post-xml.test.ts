import { hmrcEdgeAccessDeniedPage } from "@dormant/govtalk";
import { rejectionOf } from "@dormant/testing";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthorityRequestError, AuthorityUnavailableError } from "./errors.ts";
import { postXml } from "./post-xml.ts";

/**
 * The "Access Denied" page HMRC's edge (Akamai) answered with HTTP 403, a real capture kept with
 * its provenance in @dormant/govtalk's test data (packages/govtalk/testdata/hmrc/SOURCES.md).
 */
const EDGE_ACCESS_DENIED_PAGE = hmrcEdgeAccessDeniedPage();

/** What the stand-in authority received: path, headers, body, and on which connection. */
interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  connection: number;
}
let server: Server;
let base: string;
const received: Received[] = [];
let connections = 0;

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://x");
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    received.push({
      path: url.pathname,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      connection: (req.socket as unknown as { id: number }).id,
    });
    switch (url.pathname) {
      case "/echo":
        res.writeHead(200, { "content-type": "text/xml; charset=utf-8" }).end(`<echo>${Buffer.concat(chunks).toString("utf8")}</echo>`);
        return;
      case "/bom":
        res
          .writeHead(200, { "content-type": "text/xml" })
          .end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<ok>é</ok>", "utf8")]));
        return;
      case "/chunked":
        res.writeHead(200, { "content-type": "text/xml" });
        res.write("<a>");
        setTimeout(() => res.end("b</a>"), 20);
        return;
      case "/redirect":
        res.writeHead(302, { location: "/echo" }).end();
        return;
      case "/throttled":
        res.writeHead(429, { "retry-after": "7" }).end("slow down");
        return;
      case "/edge-403":
        res
          .writeHead(403, { "content-type": "text/html", ...(url.searchParams.has("retry") ? { "retry-after": "12" } : {}) })
          .end(EDGE_ACCESS_DENIED_PAGE);
        return;
      case "/govtalk-403":
        res
          .writeHead(403, { "content-type": "text/xml" })
          .end(`<GovTalkMessage xmlns="http://www.govtalk.gov.uk/CM/envelope"><EnvelopeVersion>2.0</EnvelopeVersion></GovTalkMessage>`);
        return;
      case "/not-found":
        res.writeHead(404).end("no");
        return;
      case "/broken":
        // Headers and part of the body, then the connection goes: the answer broke off.
        res.writeHead(200, { "content-type": "text/xml", "content-length": "100" });
        res.write("<partial>");
        setTimeout(() => req.socket.destroy(), 20);
        return;
      default:
        res.writeHead(404).end();
    }
  });
}

beforeAll(async () => {
  server = createServer(handle);
  server.on("connection", (socket) => {
    connections += 1;
    (socket as unknown as { id: number }).id = connections;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  received.length = 0;
});

const signal = () => new AbortController().signal;

describe("postXml", () => {
  it("posts the message as UTF-8 text/xml and returns the answer's text", async () => {
    const answer = await postXml(`${base}/echo`, "<m>Zoë &amp; Co</m>", signal());
    expect(answer).toBe("<echo><m>Zoë &amp; Co</m></echo>");
    expect(received[0]).toMatchObject({
      path: "/echo",
      body: "<m>Zoë &amp; Co</m>",
      headers: {
        "content-type": "text/xml; charset=utf-8",
        accept: "text/xml, application/xml",
        "content-length": String(Buffer.byteLength("<m>Zoë &amp; Co</m>")),
      },
    });
  });

  it("reuses its connection for the next request (keep-alive)", async () => {
    await postXml(`${base}/echo`, "<a/>", signal());
    await postXml(`${base}/echo`, "<b/>", signal());
    await Promise.all([postXml(`${base}/echo`, "<c/>", signal()), postXml(`${base}/echo`, "<d/>", signal())]);
    expect(received).toHaveLength(4);
    expect(received[1]!.connection).toBe(received[0]!.connection);
    // Two at once need two connections, one of them the one already open.
    expect(new Set(received.map((entry) => entry.connection)).size).toBe(2);
  });

  it("decodes the answer as fetch's text() did: UTF-8 without a leading BOM, chunks joined", async () => {
    expect(await postXml(`${base}/bom`, "<m/>", signal())).toBe("<ok>é</ok>");
    expect(await postXml(`${base}/chunked`, "<m/>", signal())).toBe("<a>b</a>");
  });

  it("classifies answers that are not 2xx: 429 unavailable (with Retry-After), 4xx a refused request, a redirect never followed", async () => {
    expect(await rejectionOf(postXml(`${base}/throttled`, "<m/>", signal()))).toMatchObject({
      reason: "http_status",
      status: 429,
      retryAfterSeconds: 7,
      maybeReceived: false,
    });
    const refused = await rejectionOf(postXml(`${base}/not-found`, "<m/>", signal()));
    expect(refused).toBeInstanceOf(AuthorityRequestError);
    expect(refused).toMatchObject({ status: 404 });
    const redirect = await rejectionOf(postXml(`${base}/redirect`, "<m/>", signal()));
    expect(redirect).toBeInstanceOf(AuthorityUnavailableError);
    expect(redirect).toMatchObject({ reason: "network", maybeReceived: true });
    expect(received.map((entry) => entry.path)).toEqual(["/throttled", "/not-found", "/redirect"]);
  });

  it("HMRC's edge 403 page (not GovTalk) is unavailable, not received: retried later, never a permanent refusal", async () => {
    const edge = await rejectionOf(postXml(`${base}/edge-403`, "<m/>", signal()));
    expect(edge).toBeInstanceOf(AuthorityUnavailableError);
    expect(edge).toMatchObject({ reason: "http_status", status: 403, maybeReceived: false, retryAfterSeconds: undefined });
    expect(await rejectionOf(postXml(`${base}/edge-403?retry`, "<m/>", signal()))).toMatchObject({
      reason: "http_status",
      retryAfterSeconds: 12,
    });
    // The connection is still usable afterwards (the page was read to its end).
    expect(await postXml(`${base}/echo`, "<a/>", signal())).toBe("<echo><a/></echo>");
  });

  it("a 403 that carries a GovTalk message is the authority refusing the request", async () => {
    const refused = await rejectionOf(postXml(`${base}/govtalk-403`, "<m/>", signal()));
    expect(refused).toBeInstanceOf(AuthorityRequestError);
    expect(refused).toMatchObject({ status: 403 });
  });

  it("reports an answer that broke off as unavailable, maybe received", async () => {
    expect(await rejectionOf(postXml(`${base}/broken`, "<m/>", signal()))).toMatchObject({ reason: "network", maybeReceived: true });
  });

  it("rejects with the signal's reason when aborted, before or during the call", async () => {
    const before = new AbortController();
    before.abort(new Error("gave up early"));
    expect(await rejectionOf(postXml(`${base}/echo`, "<m/>", before.signal))).toMatchObject({ message: "gave up early" });
    const during = new AbortController();
    const call = rejectionOf(postXml(`${base}/chunked`, "<m/>", during.signal));
    setTimeout(() => during.abort(new Error("gave up")), 5);
    expect(await call).toMatchObject({ message: "gave up" });
  });

  it("refuses a URL that is neither http nor https", async () => {
    expect(await rejectionOf(postXml("ftp://127.0.0.1/x", "<m/>", signal()))).toBeInstanceOf(TypeError);
  });
});
