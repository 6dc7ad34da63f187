// Runs the apps' own settings code, in one process for all apps (each app's src/env.ts imported
// once; a process per app took minutes on a busy machine):
// `node --import tsx check-settings.ts --check` reads `{ "<app>": { <environment> } }` (JSON) on
// stdin, runs each app's settings loader (the code its process runs at boot) on exactly that
// environment and prints `{ "<app>": "" | "<the problems>" }`. compose.test.ts and
// k8s-settings.test.ts give it each app's environment from docker-compose.yml / the manifests
// only, so a setting the app requires in production and the file lacks fails the test as it
// would fail the container.
// `... check-settings.ts --read`: prints (JSON, by app) the names of every setting each app's
// process reads (`read`: the keys of its settings schema, src/env.ts) and, for an app with a
// database, those its migration entry (src/migrate.ts, an init container) reads (`migrate`: the
// keys of its database settings, src/db/settings.ts).
import { existsSync } from "node:fs";
import { text } from "node:stream/consumers";
import { pathToFileURL } from "node:url";
import { repoPath } from "../repo.ts";

/** Each app's settings loader and schema, exported by its src/env.ts. */
export const SETTINGS: Record<string, { loader: string; schema: string }> = {
  "authority-sim": { loader: "loadConfig", schema: "simEnvSchema" },
  billing: { loader: "loadBillingConfig", schema: "billingEnvSchema" },
  dashboard: { loader: "loadDashboardConfig", schema: "dashboardEnvSchema" },
  filing: { loader: "loadFilingConfig", schema: "filingEnvSchema" },
  gateway: { loader: "loadGatewayConfig", schema: "gatewayEnvSchema" },
  mcp: { loader: "loadMcpConfig", schema: "mcpEnvSchema" },
  notifier: { loader: "loadNotifierConfig", schema: "notifierEnvSchema" },
  "registry-submitter": { loader: "loadRegistrySubmitterConfig", schema: "registrySubmitterEnvSchema" },
  "tax-submitter": { loader: "loadTaxSubmitterConfig", schema: "taxSubmitterEnvSchema" },
};

const module = (path: string) => import(pathToFileURL(repoPath(path)).href) as Promise<Record<string, unknown>>;

function known(app: string): { loader: string; schema: string } {
  const settings = SETTINGS[app];
  if (!settings) throw new Error(`no settings loader known for "${app}"`);
  return settings;
}

/** "" when the app's loader accepts the environment, else its message (the problems by variable name). */
async function problemsOf(app: string, environment: Record<string, string>): Promise<string> {
  const load = (await module(`apps/${app}/src/env.ts`))[known(app).loader] as (env: Record<string, string | undefined>) => unknown;
  try {
    load(environment);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

async function settingsRead(app: string): Promise<{ read: string[]; migrate?: string[] }> {
  const schema = (await module(`apps/${app}/src/env.ts`))[known(app).schema] as { shape: Record<string, unknown> };
  const read = Object.keys(schema.shape).sort();
  if (!existsSync(repoPath(`apps/${app}/src/db/settings.ts`))) return { read };
  const shapes = Object.entries(await module(`apps/${app}/src/db/settings.ts`)).filter(([key]) => key.endsWith("DatabaseEnvShape"));
  return { read, migrate: shapes.flatMap(([, shape]) => Object.keys(shape as object)).sort() };
}

const mode = process.argv[2];
if (mode === "--read") {
  const read = await Promise.all(Object.keys(SETTINGS).map(async (app) => [app, await settingsRead(app)] as const));
  process.stdout.write(JSON.stringify(Object.fromEntries(read)));
} else if (mode === "--check") {
  const environments = JSON.parse(await text(process.stdin)) as Record<string, Record<string, string>>;
  const problems = await Promise.all(
    Object.entries(environments).map(async ([app, environment]) => [app, await problemsOf(app, environment)]),
  );
  process.stdout.write(JSON.stringify(Object.fromEntries(problems)));
} else {
  process.stderr.write("usage: check-settings.ts --check < environments.json | --read\n");
  process.exit(2);
}
