import type { SubmitterBus } from "@dormant/authority-client";

/** The bus as the tax submitter uses it: serves tax.submit, consumes tax.poll, publishes outcomes. */
export type TaxBus = SubmitterBus;
