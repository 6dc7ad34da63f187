import { createHash } from "node:crypto";
import { addDays, addMonths, compareDates } from "@dormant/company-data";
import { endOfMonth, firstPeriodEnd, type CompanySpec } from "./registry-company.ts";

const ADJECTIVES = [
  "AMBER",
  "BRIGHT",
  "CEDAR",
  "COPPER",
  "DAWN",
  "EMBER",
  "FERN",
  "GRANITE",
  "HAZEL",
  "IVORY",
  "JUNIPER",
  "LARCH",
  "MAPLE",
  "NORTH",
  "OAK",
  "QUIET",
  "ROWAN",
  "SILVER",
  "THISTLE",
  "WILLOW",
];
const NOUNS = [
  "ANCHOR",
  "BRIDGE",
  "CIRCLE",
  "DELTA",
  "FIELD",
  "HARBOUR",
  "HOLLOW",
  "KEEP",
  "LANTERN",
  "MEADOW",
  "MILL",
  "ORCHARD",
  "QUAY",
  "RIDGE",
  "SPRING",
  "STONE",
  "TOWER",
  "VALLEY",
  "WHARF",
  "YARD",
];
const FORENAMES = [
  "Alice",
  "Arthur",
  "Beatrice",
  "Callum",
  "Deborah",
  "Edward",
  "Fiona",
  "George",
  "Harriet",
  "Isaac",
  "Joan",
  "Kenneth",
  "Lucy",
  "Martin",
  "Nora",
  "Oliver",
  "Priya",
  "Rhys",
  "Sarah",
  "Thomas",
];
const SURNAMES = [
  "ADEYEMI",
  "BRENNAN",
  "CHOWDHURY",
  "DAVIES",
  "EVANS",
  "FRASER",
  "GALLAGHER",
  "HUGHES",
  "IQBAL",
  "JONES",
  "KOWALSKI",
  "LLOYD",
  "MACLEOD",
  "NGUYEN",
  "O'NEILL",
  "PATEL",
  "QUINN",
  "ROBERTSON",
  "SMITH",
  "THOMPSON",
];
const STREETS = ["High Street", "Station Road", "Church Lane", "Mill Road", "Victoria Street", "Park Avenue", "King Street", "Queens Road"];
const TOWNS: Record<CompanySpec["jurisdiction"], { locality: string; postcode: string; country: string }[]> = {
  "england-wales": [
    { locality: "London", postcode: "EC2A 4NE", country: "England" },
    { locality: "Leeds", postcode: "LS1 4DY", country: "England" },
    { locality: "Bristol", postcode: "BS1 5TR", country: "England" },
    { locality: "Cardiff", postcode: "CF10 1EP", country: "Wales" },
  ],
  scotland: [
    { locality: "Edinburgh", postcode: "EH2 2ER", country: "Scotland" },
    { locality: "Aberdeen", postcode: "AB10 1AB", country: "Scotland" },
  ],
  "northern-ireland": [
    { locality: "Belfast", postcode: "BT2 8LA", country: "Northern Ireland" },
    { locality: "Derry", postcode: "BT48 6DQ", country: "Northern Ireland" },
  ],
};
const SHARE_CAPITALS = [1, 2, 10, 100, 100, 100, 1000];

/** Deterministic choices drawn from the company number. */
class Seed {
  readonly #bytes: Buffer;
  #next = 0;

  constructor(companyNumber: string) {
    this.#bytes = createHash("sha256").update(`authority-sim:${companyNumber}`).digest();
  }

  int(below: number): number {
    const byte = this.#bytes[this.#next++ % this.#bytes.length] ?? 0;
    return byte % below;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

export function jurisdictionOf(companyNumber: string): CompanySpec["jurisdiction"] {
  if (companyNumber.startsWith("SC")) return "scotland";
  if (companyNumber.startsWith("NI") || companyNumber.startsWith("R0")) return "northern-ireland";
  return "england-wales";
}

function person(seed: Seed): string {
  return `${seed.pick(SURNAMES)}, ${seed.pick(FORENAMES)}`;
}

/**
 * A plausible company for any well-formed number not in the table: the same number always
 * gives the same company (for a given `asOf`). About a quarter are in their first year (no
 * accounts filed yet, first period ended); the others have filed dormant accounts every year
 * and their latest period has ended.
 */
export function syntheticCompanySpec(companyNumber: string, asOf: string): CompanySpec {
  const seed = new Seed(companyNumber);
  const jurisdiction = jurisdictionOf(companyNumber);
  const name = `${seed.pick(ADJECTIVES)} ${seed.pick(NOUNS)} ${companyNumber} LIMITED`;
  const firstYear = seed.int(4) === 0;
  const monthsAgo = firstYear ? 13 + seed.int(8) : 36 + seed.int(96);
  const incorporatedOn = addDays(addMonths(endOfMonth(asOf), -monthsAgo), -seed.int(27));

  // Period ends: the first anniversary's month end, then every 12 months, keeping only those
  // whose following period has also ended (so the next period is ready to file).
  const filedAccounts: CompanySpec["filedAccounts"] = [];
  if (!firstYear) {
    let end = firstPeriodEnd(incorporatedOn);
    while (compareDates(endOfMonth(addMonths(end, 12)), asOf) < 0) {
      filedAccounts.push({ madeUpTo: end, filedOn: addDays(end, 30 + seed.int(150)) });
      end = endOfMonth(addMonths(end, 12));
    }
  }

  const town = seed.pick(TOWNS[jurisdiction]);
  const shareCapital = seed.pick(SHARE_CAPITALS);
  const officers: CompanySpec["officers"] = [{ name: person(seed), officer_role: "director", appointed_on: incorporatedOn }];
  if (seed.int(2) === 0) {
    officers.push({ name: person(seed), officer_role: "director", appointed_on: addDays(incorporatedOn, 30 + seed.int(200)) });
  }
  if (seed.int(3) === 0) {
    officers.push({
      name: person(seed),
      officer_role: "director",
      appointed_on: incorporatedOn,
      resigned_on: addDays(incorporatedOn, 60 + seed.int(200)),
    });
  }
  if (seed.int(2) === 0) officers.push({ name: person(seed), officer_role: "secretary", appointed_on: incorporatedOn });

  return {
    number: companyNumber,
    name,
    status: "active",
    jurisdiction,
    incorporatedOn,
    address: {
      address_line_1: `${1 + seed.int(200)} ${seed.pick(STREETS)}`,
      locality: town.locality,
      postal_code: town.postcode,
      country: town.country,
    },
    filedAccounts,
    figures: { share_capital: shareCapital, cash: shareCapital, creditors: 0, profit_loss_account: 0 },
    officers,
  };
}
