import { FORWARDED_ADDRESS_HEADER, signForwardedAddress } from "@dormant/contracts";

/** The address of a session's caller: the latest request of the session sets it. */
export interface CallerAddress {
  address: string;
}

/**
 * The fetch a session's API client uses: every request (each retry too) carries the caller's
 * address, signed afresh with the secret the MCP server shares with the gateway (contracts'
 * forwarded-address.ts), so the gateway counts failed authentications per MCP caller. Without a
 * secret, requests go out unchanged.
 */
export function callerAddressFetch(
  secret: string | undefined,
  caller: CallerAddress,
): ((request: Request) => Promise<Response>) | undefined {
  if (!secret) return undefined;
  return (request) => {
    const signed = new Request(request);
    signed.headers.set(FORWARDED_ADDRESS_HEADER, signForwardedAddress(secret, caller.address));
    return fetch(signed);
  };
}
