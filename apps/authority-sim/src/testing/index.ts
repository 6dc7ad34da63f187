// @dormant/authority-sim/testing: the simulator in-process for other workspaces' tests (the
// submitters' and the filing service's harnesses), with tiny timings and its control helpers.
export { control, postXml, startTestSim, testConfig } from "./test-sim.ts";
export type { SimServer } from "../server.ts";
export type { SimConfig } from "../config.ts";
export { PAYMENT_PROVIDER_PREFIX } from "../payment-provider/router.ts";
export type { PaymentProviderStandInConfig } from "../payment-provider/config.ts";
export { loadConfig as loadSimConfig } from "../env.ts";
