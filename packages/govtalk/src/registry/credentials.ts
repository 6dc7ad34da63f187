import { createHash, timingSafeEqual } from "node:crypto";
import type { RegistryAuthMethod } from "./constants.ts";

/** The filing agent's registry presenter account (from configuration; never logged). */
export interface RegistryPresenter {
  presenterId: string;
  presenterAuthCode: string;
  /** Optional `SenderDetails/EmailAddress`. */
  emailAddress?: string;
  /** `Authentication/Method` to send (default `clear`, REGISTRY_AUTH_METHOD); the values are MD5 hashes either way. */
  authMethod?: RegistryAuthMethod;
}

/** Lower-case hexadecimal MD5 of a UTF-8 string. */
export function md5Hex(value: string): string {
  return createHash("md5").update(value, "utf8").digest("hex");
}

/** What the envelope carries: MD5 of the presenter ID (SenderID) and of the authentication code (Value). */
export function presenterCredentialHashes(presenter: RegistryPresenter): { senderId: string; authenticationValue: string } {
  return { senderId: md5Hex(presenter.presenterId), authenticationValue: md5Hex(presenter.presenterAuthCode) };
}

function sameHash(received: string, expected: string): boolean {
  const a = Buffer.from(received.trim().toLowerCase(), "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * For the simulator: do the SenderID and Authentication/Value received hash this presenter's
 * credentials? (false = answer "Authorisation Failure", 502). Compared in constant time.
 */
export function presenterCredentialsMatch(
  received: { senderId: string | undefined; authenticationValue: string | undefined },
  presenter: RegistryPresenter,
): boolean {
  const expected = presenterCredentialHashes(presenter);
  const idMatches = sameHash(received.senderId ?? "", expected.senderId);
  const valueMatches = sameHash(received.authenticationValue ?? "", expected.authenticationValue);
  return idMatches && valueMatches;
}
