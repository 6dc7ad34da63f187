import { Writable } from "node:stream";
import { createLogger, type Logger } from "@dormant/service-kit";

/** A real service-kit logger (redaction and all) at the most verbose level, writing into memory. */
export function captureLogs(): { logger: Logger; text(): string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString("utf8"));
      callback();
    },
  });
  const logger = createLogger({ service: "gateway-test", level: "trace", format: "json", destination });
  return { logger, text: () => chunks.join("") };
}
