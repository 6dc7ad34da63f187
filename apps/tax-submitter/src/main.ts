import { runSubmitterWorker } from "@dormant/authority-client";
import { loadTaxSubmitterConfig } from "./env.ts";
import { SERVICE, startTaxSubmitter } from "./worker.ts";

void runSubmitterWorker(
  { service: SERVICE, name: "tax submitter", loadConfig: () => loadTaxSubmitterConfig(), start: startTaxSubmitter },
  (config) => [
    { tax_submission_url: config.tax.submissionUrl, gateway_test: config.tax.gatewayTest },
    "tax submitter serving tax.submit and consuming tax.poll",
  ],
);
