import { compareDates, type IsoDate } from "../calendar-date.ts";
import type { Officer, OfficerList } from "../schemas.ts";
import { formatOfficerName } from "./officer-name.ts";

/**
 * Roles that make an officer a director who can sign the accounts and the CT600 declaration:
 * natural persons only. Corporate directors (`corporate-director`, `corporate-nominee-director`)
 * are companies: a person signs for them, and their name is not a person's name, so they are
 * never chosen. Secretaries, LLP members and the other roles are not directors.
 */
export const SIGNING_DIRECTOR_ROLES: ReadonlySet<string> = new Set(["director", "nominee-director"]);

export interface FirstActiveDirector {
  /** "Forenames Surname", see formatOfficerName. */
  name: string;
  /** Null for a pre-1992 appointment, whose exact date the registry does not hold. */
  appointedOn: IsoDate | null;
}

/** The date used for ordering: the appointment date, else the pre-1992 "appointed before" date. */
function appointmentKey(officer: Officer): IsoDate | undefined {
  return officer.appointed_on ?? officer.appointed_before;
}

/**
 * The earliest-appointed director (see SIGNING_DIRECTOR_ROLES) with no `resigned_on`. Officers
 * with no appointment date at all come last; ties keep the registry's order. Null when there is
 * no such director.
 */
export function deriveFirstActiveDirector(officers: OfficerList): FirstActiveDirector | null {
  const candidates = officers.items
    .filter((o) => SIGNING_DIRECTOR_ROLES.has(o.officer_role) && o.resigned_on === undefined)
    .map((officer) => ({ officer, name: formatOfficerName(officer.name) }))
    .filter((c) => c.name.length > 0);
  candidates.sort((a, b) => {
    const keyA = appointmentKey(a.officer);
    const keyB = appointmentKey(b.officer);
    if (keyA === undefined || keyB === undefined) {
      return (keyA === undefined ? 1 : 0) - (keyB === undefined ? 1 : 0);
    }
    return compareDates(keyA, keyB);
  });
  const first = candidates[0];
  if (first === undefined) return null;
  return { name: first.name, appointedOn: first.officer.appointed_on ?? null };
}
