// Micro-benchmark of CT600 schema validation: validateCt600Body over distinct documents (one in
// eight schema-invalid), a given number of calls in flight, validations per second.
//
//   cd packages/govtalk && node --import tsx scripts/bench-validate.ts [--count 2000] [--concurrency 32]
//
// `--engine xmllint-wasm` measures instead the engine used before (xmllint-wasm, the xmllint
// command line compiled to WebAssembly, one run per call: a new worker that compiles the schema
// again each time), and `--engine xmllint-wasm-batch --batch 50` that engine with many documents
// per run (one schema compilation shared by the batch), for comparison.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { validateXML } from "xmllint-wasm";
import { buildCt600SubmitMessage } from "../src/ct600/submit-message.ts";
import { nilReturnInput } from "../src/test-support/ct600-input.ts";
import { CT600_XSD_URL, validateCt600Body } from "../src/xsd/validate-ct600.ts";

const { values } = parseArgs({
  options: {
    engine: { type: "string", default: "validateCt600Body" },
    count: { type: "string" },
    concurrency: { type: "string", default: "32" },
    batch: { type: "string", default: "50" },
  },
});
const engine = values.engine;
const defaultCount = engine === "validateCt600Body" ? 2000 : engine === "xmllint-wasm" ? 20 : 500;
const count = Number(values.count ?? defaultCount);
const concurrency = Number(values.concurrency);
const batch = Number(values.batch);

/** Distinct returns (company number and name differ); every eighth one misses its Declaration. */
function documents(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const serial = String(i).padStart(6, "0");
    const { xml } = buildCt600SubmitMessage(nilReturnInput({ companyNumber: `BN${serial}`, companyName: `Bench ${serial} Limited` }));
    return i % 8 === 7 ? xml.replace(/<Declaration>[\s\S]*<\/Declaration>/, "") : xml;
  });
}

/** Only the IRenvelope, as validateCt600Body hands it to the engine. */
function irenvelope(xml: string): string {
  return xml.slice(xml.indexOf("<IRenvelope"), xml.indexOf("</IRenvelope>") + "</IRenvelope>".length);
}

async function inFlight<T>(items: readonly T[], limit: number, task: (item: T) => Promise<boolean>): Promise<number> {
  let next = 0;
  let valid = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      if (await task(item)) valid += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  return valid;
}

async function run(docs: string[]): Promise<number> {
  if (engine === "validateCt600Body") {
    return inFlight(docs, concurrency, async (xml) => (await validateCt600Body(xml)).valid);
  }
  const schema = [{ fileName: "CT-2014-v1-994.xsd", contents: await readFile(CT600_XSD_URL, "utf8") }];
  if (engine === "xmllint-wasm") {
    return inFlight(
      docs,
      1,
      async (xml) => (await validateXML({ xml: [{ fileName: "IRenvelope.xml", contents: irenvelope(xml) }], schema })).valid,
    );
  }
  if (engine === "xmllint-wasm-batch") {
    const batches = Array.from({ length: Math.ceil(docs.length / batch) }, (_, i) => docs.slice(i * batch, (i + 1) * batch));
    let valid = 0;
    await inFlight(batches, 1, async (group) => {
      const xml = group.map((doc, i) => ({ fileName: `doc${i}.xml`, contents: irenvelope(doc) }));
      const result = await validateXML({ xml, schema });
      const failed = new Set(result.errors.flatMap((error) => (error.loc ? [error.loc.fileName] : [])));
      valid += group.length - failed.size;
      return true;
    });
    return valid;
  }
  throw new Error(`unknown --engine ${engine}: validateCt600Body | xmllint-wasm | xmllint-wasm-batch`);
}

const docs = documents(count);
await run(docs.slice(0, 8)); // warm up: load and compile once before timing
const started = performance.now();
const valid = await run(docs);
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    engine,
    count,
    ...(engine === "validateCt600Body" ? { concurrency } : engine === "xmllint-wasm-batch" ? { batch } : {}),
    valid,
    invalid: count - valid,
    seconds: Number(seconds.toFixed(2)),
    validationsPerSecond: Number((count / seconds).toFixed(1)),
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
  }),
);
