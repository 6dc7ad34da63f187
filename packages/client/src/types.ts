// Names for the API's shapes, all derived from the generated OpenAPI types (src/generated/api.ts):
// nothing here restates a field of the API by hand.
import type { components, operations } from "./generated/api.ts";

export type { components, operations, paths } from "./generated/api.ts";

type Schemas = components["schemas"];

/** The `data` of an operation's JSON success envelope for a status. */
export type ResponseData<
  Op extends keyof operations,
  Status extends keyof operations[Op]["responses"],
> = operations[Op]["responses"][Status] extends {
  content: { "application/json": { data: infer Data } };
}
  ? Data
  : never;

/** The JSON body of an operation's request. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

export type Ct600SubmitRequest = RequestBody<"submitCt600">;
export type AccountsSubmitRequest = RequestBody<"submitAccounts">;
/** A live submit's answer, or a sandbox one (test keys). */
export type Ct600SubmitResult = ResponseData<"submitCt600", 202>;
export type AccountsSubmitResult = ResponseData<"submitAccounts", 202>;
/** The report of a validate-only submit: `valid`, `derived_values`, `period_split`, `parts`, `problems`, `checks`. */
export type Ct600ValidationResult = ResponseData<"validateCt600", 200>;
export type AccountsValidationResult = ResponseData<"validateAccounts", 200>;
export type ValidationProblem = Schemas["ValidationProblem"];
export type ValidationProblemCode = Schemas["ValidationProblemCode"];
export type ValidationCheck = Schemas["ValidationCheck"];
/** A filing (live), or a sandbox filing (test keys). */
export type FilingView = ResponseData<"getFiling", 200>;
export type FilingsPage = ResponseData<"listFilings", 200>;
export type ListFilingsQuery = NonNullable<operations["listFilings"]["parameters"]["query"]>;
export type DocumentsView = ResponseData<"listDocuments", 200>;
export type AccountView = ResponseData<"getAccount", 200>;
/** Live deadlines, or the sandbox's (test keys). */
export type CompanyDeadlines = ResponseData<"getCompanyDeadlines", 200>;
export type FilingStatus = Schemas["FilingStatus"];
export type DocumentType = Schemas["DocumentType"];
export type DocumentPart = NonNullable<NonNullable<operations["getDocument"]["parameters"]["query"]>["part"]>;
/** The `error.code` values of the API's error envelope. */
export type ApiErrorCode = Schemas["Error"]["code"];
export type ApiErrorDetail = Schemas["ErrorDetail"];
export type ApiErrorEnvelope = Schemas["ErrorEnvelope"];
