import { dataOf, type Http } from "./http.ts";
import type { AccountView } from "./types.ts";

export class AccountApi {
  constructor(private readonly http: Http) {}

  /** GET /account: the calling key's account, its balance, held and available amounts and limits. */
  get(): Promise<AccountView> {
    return dataOf(this.http.GET("/account"));
  }
}
