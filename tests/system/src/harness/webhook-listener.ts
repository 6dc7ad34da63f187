import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One POST the listener received, as it arrived. */
export interface ReceivedWebhook {
  /** The raw body (what the signature covers). */
  body: string;
  headers: IncomingHttpHeaders;
  /** When it arrived (ms since the epoch). */
  receivedAt: number;
  /** The status the listener answered. */
  answered: number;
}

/**
 * A local HTTP endpoint for webhook deliveries, as an agent would run one: it records every
 * request and answers 200, or what `answer` says for the n-th request (e.g. 500 twice, then 200).
 */
export class WebhookListener {
  readonly received: ReceivedWebhook[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(answer: (index: number, body: string) => number = () => 200): Promise<WebhookListener> {
    let listener: WebhookListener | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const status = answer(listener?.received.length ?? 0, body);
        listener?.received.push({ body, headers: req.headers, receivedAt: Date.now(), answered: status });
        res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "not now");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    listener = new WebhookListener(server, `http://127.0.0.1:${port}/hooks`);
    return listener;
  }

  /** The deliveries whose body is of this event type (and filing, when given). */
  ofType(type: string, filingId?: string): ReceivedWebhook[] {
    return this.received.filter((hook) => {
      const event = JSON.parse(hook.body) as { type: string; data?: { filing_id?: string } };
      return event.type === type && (filingId === undefined || event.data?.filing_id === filingId);
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
