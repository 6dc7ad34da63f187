import type { SubmitterBus } from "@dormant/authority-client";

/** The bus as the registry submitter uses it: serves registry.submit, consumes registry.poll, publishes outcomes. */
export type RegistryBus = SubmitterBus;
