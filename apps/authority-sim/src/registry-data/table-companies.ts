import type { CompanySpec } from "./registry-company.ts";

const HUNDRED = { share_capital: 100, cash: 100, creditors: 0, profit_loss_account: 0 };
const ONE = { share_capital: 1, cash: 1, creditors: 0, profit_loss_account: 0 };

/**
 * The companies of the sandbox table, with realistic registry records. 99999999 is absent on
 * purpose: it is the documented "company unknown at the registry" number.
 */
export const TABLE_COMPANIES: readonly CompanySpec[] = [
  {
    number: "00000001",
    name: "LOVELACE ENGINES LIMITED",
    status: "active",
    jurisdiction: "england-wales",
    incorporatedOn: "2022-04-14",
    address: { address_line_1: "12 Analytical Row", locality: "London", postal_code: "EC1A 1AA", country: "England" },
    filedAccounts: [
      { madeUpTo: "2023-03-31", filedOn: "2023-05-11" },
      { madeUpTo: "2024-03-31", filedOn: "2024-06-02" },
      { madeUpTo: "2025-03-31", filedOn: "2025-06-19" },
    ],
    figures: HUNDRED,
    officers: [
      { name: "LOVELACE, Augusta Ada", officer_role: "director", appointed_on: "2022-04-14" },
      { name: "SOMERVILLE, Mary", officer_role: "director", appointed_on: "2022-04-14", resigned_on: "2022-12-31" },
      { name: "BABBAGE, Charles", officer_role: "director", appointed_on: "2023-01-09" },
      { name: "TABULATING SECRETARIES LIMITED", officer_role: "corporate-secretary", appointed_on: "2022-04-14" },
    ],
  },
  {
    number: "00000002",
    name: "BABBAGE DIFFERENCE LIMITED",
    status: "active",
    jurisdiction: "england-wales",
    incorporatedOn: "2019-09-03",
    address: { address_line_1: "1 Dorset Street", locality: "London", postal_code: "W1U 4EG", country: "England" },
    filedAccounts: [
      { madeUpTo: "2023-09-30", filedOn: "2023-12-04" },
      { madeUpTo: "2024-09-30", filedOn: "2024-11-20" },
      { madeUpTo: "2025-09-30", filedOn: "2025-12-15" },
    ],
    figures: HUNDRED,
    officers: [
      { name: "BABBAGE, Charles", officer_role: "director", appointed_on: "2019-09-03" },
      { name: "BABBAGE, Georgiana Whitmore", officer_role: "secretary", appointed_on: "2019-09-03" },
    ],
  },
  {
    number: "00000003",
    name: "HOPPER COMPILERS LIMITED",
    status: "active",
    jurisdiction: "england-wales",
    incorporatedOn: "2020-01-15",
    address: { address_line_1: "9 Cobol Court", locality: "Manchester", postal_code: "M1 1AE", country: "England" },
    filedAccounts: [
      { madeUpTo: "2021-01-31", filedOn: "2021-04-02" },
      { madeUpTo: "2022-01-31", filedOn: "2022-03-18" },
      { madeUpTo: "2023-01-31", filedOn: "2023-04-27" },
      { madeUpTo: "2024-01-31", filedOn: "2024-03-08" },
      { madeUpTo: "2025-01-31", filedOn: "2025-05-30" },
    ],
    figures: ONE,
    officers: [
      { name: "HOPPER, Grace Brewster", officer_role: "director", appointed_on: "2020-01-15" },
      { name: "AIKEN, Howard Hathaway", officer_role: "director", appointed_on: "2020-01-15", resigned_on: "2021-06-30" },
    ],
  },
  {
    number: "00000004",
    name: "TURING MACHINES LIMITED",
    status: "active",
    jurisdiction: "england-wales",
    incorporatedOn: "2021-06-23",
    address: { address_line_1: "54 Hollymeade", locality: "Wilmslow", postal_code: "SK9 1AA", country: "England" },
    filedAccounts: [
      { madeUpTo: "2022-06-30", filedOn: "2022-09-12" },
      { madeUpTo: "2023-06-30", filedOn: "2023-08-01" },
      { madeUpTo: "2024-06-30", filedOn: "2024-10-09" },
      { madeUpTo: "2025-06-30", filedOn: "2025-09-26" },
    ],
    figures: HUNDRED,
    officers: [{ name: "TURING, Alan Mathison", officer_role: "director", appointed_on: "2021-06-23" }],
  },
  {
    number: "00000005",
    name: "NOETHER ALGEBRA LIMITED",
    status: "active",
    jurisdiction: "england-wales",
    incorporatedOn: "2025-05-12",
    address: { address_line_1: "3 Ring Road", locality: "Cambridge", postal_code: "CB2 1TN", country: "England" },
    filedAccounts: [],
    figures: HUNDRED,
    officers: [
      { name: "NOETHER, Amalie Emmy", officer_role: "director", appointed_on: "2025-05-12" },
      { name: "WEYL, Hermann Klaus Hugo", officer_role: "secretary", appointed_on: "2025-05-12" },
    ],
  },
  {
    number: "00000006",
    name: "FRANKLIN HELIX LIMITED",
    status: "active",
    jurisdiction: "england-wales",
    incorporatedOn: "2018-03-01",
    address: { address_line_1: "22 Drury Lane", locality: "London", postal_code: "WC2B 5RH", country: "England" },
    filedAccounts: [
      { madeUpTo: "2024-03-31", filedOn: "2024-07-15" },
      { madeUpTo: "2025-03-31", filedOn: "2025-07-01" },
    ],
    figures: HUNDRED,
    officers: [{ name: "FRANKLIN, Rosalind Elsie", officer_role: "director", appointed_on: "2018-03-01" }],
  },
  {
    number: "SC000001",
    name: "MAXWELL FIELDS LIMITED",
    status: "active",
    jurisdiction: "scotland",
    incorporatedOn: "2017-10-09",
    address: { address_line_1: "14 India Street", locality: "Edinburgh", postal_code: "EH3 6EZ", country: "Scotland" },
    filedAccounts: [
      { madeUpTo: "2023-10-31", filedOn: "2024-01-22" },
      { madeUpTo: "2024-10-31", filedOn: "2025-02-03" },
      { madeUpTo: "2025-10-31", filedOn: "2026-01-14" },
    ],
    figures: HUNDRED,
    officers: [
      { name: "MAXWELL, James Clerk", officer_role: "director", appointed_on: "2017-10-09" },
      { name: "CAMPBELL, Lewis", officer_role: "director", appointed_on: "2017-10-09", resigned_on: "2019-05-31" },
      { name: "SOMERVILLE, Mary", officer_role: "secretary", appointed_on: "2018-02-01" },
    ],
  },
  {
    number: "SC000002",
    name: "KELVIN THERMAL LIMITED",
    status: "dissolved",
    jurisdiction: "scotland",
    incorporatedOn: "2016-02-10",
    address: { address_line_1: "2 University Avenue", locality: "Glasgow", postal_code: "G12 8QQ", country: "Scotland" },
    filedAccounts: [
      { madeUpTo: "2022-02-28", filedOn: "2022-05-16" },
      { madeUpTo: "2023-02-28", filedOn: "2023-04-03" },
    ],
    figures: ONE,
    officers: [{ name: "THOMSON, William", officer_role: "director", appointed_on: "2016-02-10" }],
  },
  {
    number: "NI000001",
    name: "BELL BURNELL PULSARS LIMITED",
    status: "active",
    jurisdiction: "northern-ireland",
    incorporatedOn: "2020-08-19",
    address: { address_line_1: "7 Lurgan Road", locality: "Belfast", postal_code: "BT1 1AA", country: "Northern Ireland" },
    filedAccounts: [
      { madeUpTo: "2024-08-31", filedOn: "2024-11-04" },
      { madeUpTo: "2025-08-31", filedOn: "2025-10-28" },
    ],
    figures: HUNDRED,
    officers: [
      { name: "BELL BURNELL, Susan Jocelyn", officer_role: "director", appointed_on: "2020-08-19" },
      { name: "HEWISH, Antony", officer_role: "secretary", appointed_on: "2020-08-19" },
    ],
  },
  {
    number: "NI000002",
    name: "BOOLE LOGIC LIMITED",
    status: "active",
    jurisdiction: "northern-ireland",
    incorporatedOn: "2025-03-04",
    address: { address_line_1: "1 Queen's Road", locality: "Belfast", postal_code: "BT3 9DT", country: "Northern Ireland" },
    filedAccounts: [],
    figures: HUNDRED,
    officers: [{ name: "BOOLE, George", officer_role: "director", appointed_on: "2025-03-04" }],
  },
];
