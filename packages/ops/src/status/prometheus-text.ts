/** One sample of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
}

/** The samples of metric `name` in an exposition (comments and other metrics skipped). */
export function samplesOf(text: string, name: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = SAMPLE.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[3] ?? "").matchAll(LABEL)) labels[label[1] as string] = unescapeLabel(label[2] as string);
    samples.push({ name, labels, value: Number(match[4]) });
  }
  return samples;
}
