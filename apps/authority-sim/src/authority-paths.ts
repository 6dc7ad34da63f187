/**
 * Where each authority lives on the simulator. Each prefix plays the role of the authority's
 * host, so a client is configured with `<sim>/<prefix>` as its base URL and then uses the real
 * paths: `/submission` and `/poll` (tax), `/v1-0/xmlgw/Gateway` (registry XML gateway),
 * `/company/{number}...` (registry public data API).
 */
export const PREFIX = {
  tax: "/tax",
  registry: "/registry",
  registryData: "/registry-data",
  control: "/_control",
} as const;

export const TAX_PATHS = { submission: "/submission", poll: "/poll" } as const;
export const REGISTRY_GATEWAY_PATH = "/v1-0/xmlgw/Gateway";
