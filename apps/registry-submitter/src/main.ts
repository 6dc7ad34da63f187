import { runSubmitterWorker } from "@dormant/authority-client";
import { loadRegistrySubmitterConfig } from "./env.ts";
import { SERVICE, startRegistrySubmitter } from "./worker.ts";

void runSubmitterWorker(
  { service: SERVICE, name: "registry submitter", loadConfig: () => loadRegistrySubmitterConfig(), start: startRegistrySubmitter },
  (config) => [
    {
      registry_gateway_url: config.registry.gatewayUrl,
      gateway_test: config.registry.gatewayTest,
      poll_interval_seconds: config.registry.pollIntervalSeconds,
    },
    "registry submitter serving registry.submit and consuming registry.poll",
  ],
);
