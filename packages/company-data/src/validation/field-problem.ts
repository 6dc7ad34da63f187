/**
 * A business-rule problem with one request field. `path` uses the public API's request field
 * names with dots (`period.start`, `balance_sheet.cash`, `period_end`), so the gateway can put
 * it straight into a VALIDATION_ERROR's `details` as `{ field: path, message }`.
 */
export interface FieldProblem {
  path: string;
  message: string;
}
