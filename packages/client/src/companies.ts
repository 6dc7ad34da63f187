import { dataOf, type Http } from "./http.ts";
import type { CompanyDeadlines } from "./types.ts";

export class CompaniesApi {
  constructor(private readonly http: Http) {}

  /**
   * GET /companies/{company_number}/deadlines: the company's current and next accounts periods
   * with their registry due dates, the CT600 filing deadline of each accounting period, and the
   * calling key's own filings for them (a test key gets the sandbox's deterministic answer).
   */
  deadlines(companyNumber: string): Promise<CompanyDeadlines> {
    return dataOf(this.http.GET("/companies/{company_number}/deadlines", { params: { path: { company_number: companyNumber } } }));
  }
}
