import type { SecuredRouteCalls } from "./security-suite.ts";
import { accountsBody, ct600Body } from "./requests.ts";

const GATEWAY_PASSWORD = "s3cret-Gateway-Passw0rd";
const COMPANY_AUTH_CODE = "QX7K2M";
const ct600Credentials = { government_gateway_id: "GW-USER-1", government_gateway_password: GATEWAY_PASSWORD };

const WEBHOOK_URL = "https://agent.example.com/hooks/dormant";
/** A webhook endpoint id nobody serves (nothing answers notifier.rpc in the tests' shared vhost), and a malformed one. */
const endpointCalls: SecuredRouteCalls = { params: { id: "we_0123456789abcdefABCD" }, invalid: { params: { id: "we_1" } } };

/** How the security suite calls each authenticated route, by operationId (every one must be here). */
export const SECURED_ROUTES: Record<string, SecuredRouteCalls> = {
  listFilings: { invalid: { query: "limit=1000" } },
  submitCt600: {
    body: () => ct600Body({ credentials: ct600Credentials }),
    invalid: { body: ct600Body({ utr: "x", credentials: ct600Credentials }) },
    secrets: [GATEWAY_PASSWORD],
  },
  submitAccounts: {
    body: () => accountsBody({ credentials: { company_auth_code: COMPANY_AUTH_CODE } }),
    invalid: { body: accountsBody({ period_end: "x", credentials: { company_auth_code: COMPANY_AUTH_CODE } }) },
    secrets: [COMPANY_AUTH_CODE],
  },
  validateCt600: {
    body: () => ct600Body({ credentials: ct600Credentials }),
    invalid: { body: ct600Body({ utr: "x", credentials: ct600Credentials }) },
    secrets: [GATEWAY_PASSWORD],
  },
  validateAccounts: {
    body: () => accountsBody({ credentials: { company_auth_code: COMPANY_AUTH_CODE } }),
    invalid: { body: accountsBody({ period_end: "x", credentials: { company_auth_code: COMPANY_AUTH_CODE } }) },
    secrets: [COMPANY_AUTH_CODE],
  },
  getFiling: { invalid: { params: { filing_id: `fil_${"a".repeat(200)}` } } },
  listDocuments: { invalid: { params: { filing_id: `fil_${"a".repeat(200)}` } } },
  getDocument: { params: { type: "ct600_pdf" }, invalid: { params: { type: "vat_pdf" } } },
  getAccount: {},
  getCompanyDeadlines: { params: { company_number: "00000001" }, invalid: { params: { company_number: "0000000x" } } },
  createWebhookEndpoint: {
    body: () => ({ url: WEBHOOK_URL, description: "agent hooks" }),
    invalid: { body: { url: "ftp://agent.example.com/hooks" } },
  },
  listWebhookEndpoints: { invalid: { query: "limit=1000" } },
  getWebhookEndpoint: endpointCalls,
  deleteWebhookEndpoint: endpointCalls,
  rotateWebhookEndpointSecret: endpointCalls,
  enableWebhookEndpoint: endpointCalls,
  sendWebhookTest: endpointCalls,
  listWebhookDeliveries: { ...endpointCalls, invalid: { params: { id: "we_x" }, query: "offset=-1" } },
};
