import { FORWARDED_ADDRESS_HEADER, verifyForwardedAddress } from "@dormant/contracts";
import type { Request } from "express";

/** The address failed authentications are counted against. */
export type ClientAddressOf = (req: Request) => string;

/**
 * The client's address: the one the MCP server vouches for (its `X-Dormant-Client-Address`,
 * signed with MCP_CLIENT_ADDRESS_SECRET and verified in constant time) when the request carries a
 * valid proof, else `req.ip` (the socket's address, or the X-Forwarded-For entry that Express's
 * "trust proxy" picks behind TRUST_PROXY_HOPS proxies). Without a secret the header is never
 * read; a header without a valid proof is ignored, so nobody else can choose their bucket.
 */
export function clientAddressOf(mcpSecret: string | undefined, now: () => number = Date.now): ClientAddressOf {
  const own = (req: Request) => req.ip ?? req.socket.remoteAddress ?? "unknown";
  if (!mcpSecret) return own;
  return (req) => verifyForwardedAddress(mcpSecret, req.get(FORWARDED_ADDRESS_HEADER), now()) ?? own(req);
}
