import { getAccountRoute } from "./get-account.ts";
import { getCompanyDeadlinesRoute } from "./get-company-deadlines.ts";
import { getDocumentRoute } from "./get-document.ts";
import { getFilingRoute } from "./get-filing.ts";
import { healthRoute } from "./health.ts";
import { listDocumentsRoute } from "./list-documents.ts";
import { listFilingsRoute } from "./list-filings.ts";
import type { Route } from "./route.ts";
import { submitAccountsRoute } from "./submit-accounts.ts";
import { submitCt600Route } from "./submit-ct600.ts";
import { validateAccountsRoute } from "./validate-accounts.ts";
import { validateCt600Route } from "./validate-ct600.ts";
import { WEBHOOK_ROUTES } from "./webhook-endpoints.ts";

/** Every endpoint of /api/v1 (spec section 4, plus the GET /account, deadlines and webhook endpoint extensions), mounted by app.ts and described by the OpenAPI document. */
export const API_ROUTES: readonly Route[] = [
  healthRoute,
  listFilingsRoute,
  submitCt600Route,
  submitAccountsRoute,
  validateCt600Route,
  validateAccountsRoute,
  getFilingRoute,
  listDocumentsRoute,
  getDocumentRoute,
  getAccountRoute,
  getCompanyDeadlinesRoute,
  ...WEBHOOK_ROUTES,
];
