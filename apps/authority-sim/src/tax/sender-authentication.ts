import type { GovTalkAuthentication } from "@dormant/govtalk";

/**
 * The Transaction Engine's check of a sender's credentials, the same for a submission and a
 * DATA_REQUEST: MD5 authentication (withdrawn for CT) is 1047; no credentials, a Method other
 * than `clear`, an empty password, or a SenderID or password equal to the configured refused
 * credential is 1046 (both answered with Class `UndefinedClass`). undefined: accepted.
 */
export function refusedSender(
  request: { senderId: string | undefined; authentication: GovTalkAuthentication | undefined },
  refusedCredential: string,
): 1046 | 1047 | undefined {
  const auth = request.authentication;
  if (auth && auth.method.toUpperCase() === "MD5") return 1047;
  if (auth?.method !== "clear" || !request.senderId || auth.value === "") return 1046;
  if (request.senderId === refusedCredential || auth.value === refusedCredential) return 1046;
  return undefined;
}
