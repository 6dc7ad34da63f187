// A stand-in collector for the benchmark: accepts OTLP/HTTP trace exports (any encoding) on
// PORT, reads each body and answers 200, so that the traced gateway pays for exporting as it
// would to a real collector on another machine.
import { createServer } from "node:http";

let spansBytes = 0;
const server = createServer((req, res) => {
  req.on("data", (chunk) => (spansBytes += chunk.length));
  req.on("end", () => res.writeHead(200, { "content-type": "application/x-protobuf" }).end());
});
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  process.stderr.write(`otlp sink received ${spansBytes} bytes\n`);
  server.close(() => process.exit(0));
});
