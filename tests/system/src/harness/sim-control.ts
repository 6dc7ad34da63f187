/** One request the simulator received (its `/_control/received` log; never holds a secret). */
export interface ReceivedEntry {
  seq: number;
  at: string;
  target: "tax" | "registry" | "registry-data";
  kind: string;
  company?: string;
  correlationId?: string;
  submissionNumber?: string;
  irmark?: string;
  /** acknowledgement, response, PENDING, ACCEPT, error:NNNN, no-answer, ... */
  answer: string;
}

export interface SimFaults {
  down?: boolean;
  reset?: boolean;
  hang?: boolean;
  slowMs?: number;
  errorRate?: number;
  errorMode?: "protocol" | "http";
  /** Take each submission in (recorded, decided as usual), then lose its answer: hold the connection, or close it. */
  loseAnswer?: "hold" | "close" | null;
  /** With `loseAnswer`: only the next N submissions' answers. */
  loseAnswerCount?: number;
}

/** The authority simulator's control API (`/_control/*`, see apps/authority-sim/README.md). */
export class SimControl {
  constructor(readonly baseUrl: string) {}

  async received(query: { target?: ReceivedEntry["target"]; kind?: string; company?: string } = {}): Promise<ReceivedEntry[]> {
    const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const response = await fetch(`${this.baseUrl}/_control/received?${params}`);
    if (!response.ok) throw new Error(`GET /_control/received answered ${response.status}`);
    return ((await response.json()) as { items: ReceivedEntry[] }).items;
  }

  /** The sequence number of the last request received (0 when none): later entries have higher ones. */
  async lastSeq(): Promise<number> {
    const response = await fetch(`${this.baseUrl}/_control/received?limit=1`);
    if (!response.ok) throw new Error(`GET /_control/received answered ${response.status}`);
    return ((await response.json()) as { items: ReceivedEntry[] }).items[0]?.seq ?? 0;
  }

  /** Acknowledged submissions: tax keyed by correlation id, registry by submission number. */
  async acknowledgedSubmissions(target: "tax" | "registry"): Promise<ReceivedEntry[]> {
    return (await this.received({ target, kind: "submit" })).filter((entry) => entry.answer === "acknowledgement");
  }

  async setFaults(target: ReceivedEntry["target"], faults: SimFaults): Promise<void> {
    await this.send("POST", "/_control/faults", { target, ...faults });
  }

  async clearFaults(): Promise<void> {
    await this.send("DELETE", "/_control/faults");
  }

  private async send(method: string, path: string, body?: unknown): Promise<void> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  }
}
