import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The live benchmark's webhook endpoint: an HTTPS server on 127.0.0.1 (the notifier runs in
 * production mode, where endpoints must be https) with a self-signed certificate made by openssl
 * for the run; the notifier trusts it through NODE_EXTRA_CA_CERTS (`caFile`) and is allowed the
 * loopback address (WEBHOOK_ALLOW_PRIVATE_URLS). It records when each filing's first event of
 * each type arrived, and answers 200 at once.
 */
export class WebhookSink {
  private readonly firstAt = new Map<string, number>();
  received = 0;

  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    readonly url: string,
    readonly caFile: string,
  ) {}

  static async start(): Promise<WebhookSink> {
    const dir = mkdtempSync(join(tmpdir(), "dormant-bench-webhooks-"));
    const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    let sink: WebhookSink | undefined;
    const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        sink?.record(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    sink = new WebhookSink(server, dir, `https://127.0.0.1:${port}/hooks`, cert);
    return sink;
  }

  private record(body: string): void {
    this.received += 1;
    try {
      const event = JSON.parse(body) as { type?: string; data?: { filing_id?: string } };
      const key = `${event.type}:${event.data?.filing_id}`;
      if (!this.firstAt.has(key)) this.firstAt.set(key, Date.now());
    } catch {
      // not an event: counted, not timed
    }
  }

  /** When the first `type` event of the filing arrived (ms since the epoch), if it did. */
  arrivedAt(type: string, filingId: string): number | undefined {
    return this.firstAt.get(`${type}:${filingId}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
