// Writes the platform's bus topology (PLATFORM_TOPOLOGY in @dormant/contracts) as RabbitMQ
// definitions: exchanges, queues, bindings, and one user per service with its permissions.
// Usage: pnpm --filter @dormant/bus export-definitions [--vhost /] [--out path] [--user-prefix dormant-]
//          [--topology-only | --passwords-from-env [--post http://admin:pass@rabbitmq:15672]]
// Without options it rewrites the committed infra/rabbitmq/definitions.json, whose users carry a
// placeholder instead of a password hash (an import of it fails before changing anything).
// --passwords-from-env is the deploy-time export: each service's password from
// AMQP_PASSWORD_<SERVICE> (e.g. AMQP_PASSWORD_TAX_SUBMITTER), hashed; written to --out (never the
// committed file, readable by its owner only) or, with --post, imported through the management
// API (POST /api/definitions). --topology-only leaves users and permissions out.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { type DefinitionsOptions, passwordVariable, renderDefinitions, serviceUserName } from "../topology/definitions.ts";
import { rabbitPasswordHash } from "../topology/password-hash.ts";
import { definitionsPath } from "./definitions-file.ts";

const { values } = parseArgs({
  options: {
    vhost: { type: "string", default: "/" },
    out: { type: "string" },
    post: { type: "string" },
    "user-prefix": { type: "string", default: "dormant-" },
    "passwords-from-env": { type: "boolean", default: false },
    "topology-only": { type: "boolean", default: false },
  },
});
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};
const withPasswords = values["passwords-from-env"];
const options: DefinitionsOptions = {
  vhost: values.vhost,
  topologyOnly: values["topology-only"],
  userName: (service) => serviceUserName(service, values["user-prefix"]),
};
if (withPasswords) {
  const missing = (PLATFORM_TOPOLOGY.services ?? []).map((role) => passwordVariable(role.service)).filter((name) => !process.env[name]);
  if (missing.length > 0) fail(`missing passwords: ${missing.join(", ")}`);
  options.passwordHash = (service) => rabbitPasswordHash(process.env[passwordVariable(service)] ?? "");
}
const text = renderDefinitions(PLATFORM_TOPOLOGY, options);

if (values.post) {
  if (!withPasswords) fail("--post imports the deploy-time definitions: give --passwords-from-env too");
  // fetch refuses credentials in the URL: they become the Authorization header.
  const url = new URL("/api/definitions", values.post);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
  url.username = "";
  url.password = "";
  const response = await fetch(url, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: text });
  if (!response.ok) fail(`${url.origin} refused the definitions: ${response.status} ${(await response.text()).slice(0, 500)}`);
  process.stdout.write(`imported the definitions into ${url.origin} (vhost ${values.vhost})\n`);
} else {
  const out = resolve(values.out ?? definitionsPath);
  if (withPasswords && out === definitionsPath)
    fail("--passwords-from-env writes hashes of real passwords: give --out a path outside the repository");
  writeFileSync(out, text, withPasswords ? { mode: 0o600 } : {});
  process.stdout.write(`wrote ${out}\n`);
}
