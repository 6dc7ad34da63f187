import { calendarDateAt, sandboxCompanyRecord } from "@dormant/company-data";
import type { RegistryDataSource } from "./registry-data-source.ts";

/**
 * The registry a test key's validation derives from: the sandbox's made-up company for any
 * number (@dormant/company-data `sandboxCompanyRecord`), as of today. Nothing is fetched or cached.
 */
export function sandboxRegistry(now: () => Date): RegistryDataSource {
  return {
    async getCompany(companyNumber) {
      return sandboxCompanyRecord(companyNumber, calendarDateAt(now()));
    },
  };
}
