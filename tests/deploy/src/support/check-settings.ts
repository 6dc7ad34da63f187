// `node --import tsx check-settings.ts <app>`: loads the app's settings (its src/env.ts loader, the
// code its process runs at boot) from this process's environment and exits 0 when they are
// complete, 1 with the problems otherwise. compose.test.ts runs it with a service's environment
// from docker-compose.yml only, so a setting the app requires in production and the file lacks
// fails the test as it would fail the container.
import { pathToFileURL } from "node:url";
import { repoPath } from "../repo.ts";

/** Each app's settings loader, exported by its src/env.ts. */
export const SETTINGS_LOADERS: Record<string, string> = {
  "authority-sim": "loadConfig",
  billing: "loadBillingConfig",
  dashboard: "loadDashboardConfig",
  filing: "loadFilingConfig",
  gateway: "loadGatewayConfig",
  mcp: "loadMcpConfig",
  notifier: "loadNotifierConfig",
  "registry-submitter": "loadRegistrySubmitterConfig",
  "tax-submitter": "loadTaxSubmitterConfig",
};

const app = process.argv[2] ?? "";
const loader = SETTINGS_LOADERS[app];
if (!loader) {
  process.stderr.write(`no settings loader known for "${app}"\n`);
  process.exit(2);
}
const settings = (await import(pathToFileURL(repoPath(`apps/${app}/src/env.ts`)).href)) as Record<
  string,
  (env: NodeJS.ProcessEnv) => unknown
>;
try {
  settings[loader]!(process.env);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
