import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or bytes as they are. */
  body?: unknown;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A real HTTP server on a free local port that answers each request with the next scripted
 * answer (the last one again once the script is used up) and records what it received.
 */
export class ScriptedServer {
  readonly received: ReceivedRequest[] = [];
  private script: ScriptedAnswer[] = [];
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ScriptedServer> {
    let self: ScriptedServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        self!.received.push({
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          at: Date.now(),
        });
        const answer = self!.script.length > 1 ? self!.script.shift()! : self!.script[0];
        if (!answer) {
          res.writeHead(500).end("no scripted answer");
          return;
        }
        const json = typeof answer.body === "object" && answer.body !== null && !(answer.body instanceof Uint8Array);
        const body = answer.body === undefined ? "" : json ? JSON.stringify(answer.body) : (answer.body as string | Uint8Array);
        res.writeHead(answer.status, { ...(json ? { "content-type": "application/json" } : {}), ...answer.headers }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new ScriptedServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** Replaces the script and forgets what was received. */
  answer(...answers: ScriptedAnswer[]): this {
    this.script = answers;
    this.received.length = 0;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The API's error envelope. */
export function errorEnvelope(code: string, message: string, extra: { details?: unknown[]; requestId?: string } = {}) {
  return {
    success: false,
    error: { code, message, ...(extra.details ? { details: extra.details } : {}) },
    request_id: extra.requestId ?? "3f0c1b7e-2f4d-4c59-9a4e-8d7a1c0b5e21",
  };
}

export function successEnvelope(data: unknown) {
  return { success: true, data, request_id: "11111111-2222-4333-8444-555555555555" };
}
