// The benchmark's reference: a bare Express app that parses a JSON body and sends it back.
// Started by run-bench.mjs on the same machine at the same time as the gateway.
import express from "express";

const app = express();
app.disable("x-powered-by");
app.post("/echo", express.json(), (req, res) => {
  res.json(req.body);
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1", (error) => {
  if (error) {
    process.stderr.write(`echo server: ${error.message}\n`);
    process.exit(1);
  }
  process.stdout.write("listening\n");
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
