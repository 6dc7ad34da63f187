import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Where the notifier may send webhooks (issue 14 "Safety"). A URL is refused when it is not
 * https in production, or when ANY address its host resolves to is:
 *   - always refused: link-local (169.254.0.0/16, fe80::/10: cloud metadata services live there),
 *     the AWS IPv6 metadata address fd00:ec2::254, multicast and broadcast;
 *   - refused unless private URLs are allowed (development and tests): loopback (127.0.0.0/8,
 *     ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7), carrier-grade NAT (100.64.0.0/10),
 *     "this network" (0.0.0.0/8) and the unspecified address (::).
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are judged as the IPv4 address they carry.
 * The check runs when an endpoint is created and again before every attempt, and the attempt
 * connects to the very address checked (see delivery/http-attempt.ts), so a DNS answer that
 * changes between check and connect cannot reach a refused address.
 */
export interface UrlSafetyOptions {
  /** https only. */
  httpsOnly: boolean;
  /** Loopback and private addresses allowed (WEBHOOK_ALLOW_PRIVATE_URLS). */
  allowPrivate: boolean;
  /** DNS resolution (tests substitute one); default dns.lookup with all: true. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string };

const ALWAYS_REFUSED: [string, number, "ipv4" | "ipv6", string][] = [
  ["169.254.0.0", 16, "ipv4", "a link-local address (169.254.0.0/16, cloud metadata)"],
  ["fe80::", 10, "ipv6", "a link-local address (fe80::/10)"],
  ["fd00:ec2::254", 128, "ipv6", "the cloud metadata address fd00:ec2::254"],
  ["224.0.0.0", 4, "ipv4", "a multicast address"],
  ["255.255.255.255", 32, "ipv4", "the broadcast address"],
  ["ff00::", 8, "ipv6", "a multicast address"],
];

const PRIVATE: [string, number, "ipv4" | "ipv6", string][] = [
  ["127.0.0.0", 8, "ipv4", "a loopback address"],
  ["::1", 128, "ipv6", "a loopback address"],
  ["10.0.0.0", 8, "ipv4", "a private address (10.0.0.0/8)"],
  ["172.16.0.0", 12, "ipv4", "a private address (172.16.0.0/12)"],
  ["192.168.0.0", 16, "ipv4", "a private address (192.168.0.0/16)"],
  ["100.64.0.0", 10, "ipv4", "a carrier-grade NAT address (100.64.0.0/10)"],
  ["0.0.0.0", 8, "ipv4", "a 'this network' address (0.0.0.0/8)"],
  ["fc00::", 7, "ipv6", "a private address (fc00::/7)"],
  ["::", 128, "ipv6", "the unspecified address (::)"],
];

/** `::ffff:1.2.3.4` / `::ffff:102:304` -> `1.2.3.4`; other addresses unchanged. */
export function unmapIpv4(address: string): { address: string; family: 4 | 6 } {
  // A zone index (fe80::1%eth0) does not change which range the address is in.
  const lower = address.toLowerCase().replace(/%.*$/, "");
  if (isIP(lower) === 4) return { address: lower, family: 4 };
  const dotted = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1] && isIP(dotted[1]) === 4) return { address: dotted[1], family: 4 };
  const hex =
    /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower) ??
    /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, family: 4 };
  }
  return { address: lower, family: 6 };
}

/** Why an address is refused (null: allowed). */
export function refusedAddressReason(address: string, allowPrivate: boolean): string | null {
  const { address: plain, family } = unmapIpv4(address);
  if (isIP(plain) === 0) return `"${address}" is not an IP address`;
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [network, prefix, rangeType, reason] of ALWAYS_REFUSED) {
    if (rangeType === type && subnetContains(network, prefix, rangeType, plain)) return reason;
  }
  if (allowPrivate) return null;
  for (const [network, prefix, rangeType, reason] of PRIVATE) {
    if (rangeType === type && subnetContains(network, prefix, rangeType, plain)) return reason;
  }
  return null;
}

function subnetContains(network: string, prefix: number, type: "ipv4" | "ipv6", address: string): boolean {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return list.check(address, type);
}

async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

/** Checks a webhook URL (see the module comment); resolves the host unless it is an IP literal. */
export async function checkWebhookUrl(raw: string, options: UrlSafetyOptions): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "must be an http(s) URL" };
  if (options.httpsOnly && url.protocol !== "https:") return { ok: false, reason: "must be an https URL" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "must not carry credentials" };
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (hostname === "") return { ok: false, reason: "must name a host" };

  let addresses: ResolvedAddress[];
  if (isIP(hostname) !== 0) {
    addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.lookup ?? defaultLookup)(hostname);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, reason: `its host ${hostname} could not be resolved${code ? ` (${code})` : ""}` };
    }
    if (addresses.length === 0) return { ok: false, reason: `its host ${hostname} has no address` };
  }
  for (const { address } of addresses) {
    const reason = refusedAddressReason(address, options.allowPrivate);
    if (reason) return { ok: false, reason: `its host resolves to ${reason} (${address}), which is refused` };
  }
  return { ok: true, url, addresses };
}
