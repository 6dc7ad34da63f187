import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Where the notifier may send webhooks (issue 14 "Safety", issue 28). A URL is refused when it is
 * not https in production, or when ANY address its host resolves to is:
 *   - always refused: link-local (169.254.0.0/16, fe80::/10: cloud metadata services live there),
 *     the AWS IPv6 metadata address fd00:ec2::254, multicast, and reserved (240.0.0.0/4, the
 *     broadcast address included);
 *   - refused unless private URLs are allowed (development and tests): loopback (127.0.0.0/8,
 *     ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7), carrier-grade NAT (100.64.0.0/10),
 *     "this network" (0.0.0.0/8), the unspecified address (::), benchmarking (198.18.0.0/15), IETF
 *     protocol assignments (192.0.0.0/24), local-use NAT64 (64:ff9b:1::/48) and the deprecated
 *     IPv4-compatible addresses (::/96) whatever IPv4 address they carry.
 * An IPv6 address that carries an IPv4 address is judged as that IPv4 address too: IPv4-mapped
 * (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d, RFC 6052), 6to4 (2002:aabb:ccdd::, RFC 3056) and
 * IPv4-compatible (::a.b.c.d). A refusal says why in general terms (`reason`, shown to the
 * account): never the address a name resolved to, which only the log gets (`detail`), so the
 * check cannot be used to map the platform's private network.
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

/** `reason`: for the account (no resolved address in it); `detail`: for the notifier's log only. */
export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string; detail: string };

/** What the account is told when an address is refused: the ranges in general, never the address. */
export const REFUSED_ADDRESS_REASON =
  "its host resolves to a non-public address (private, loopback, link-local, cloud metadata or reserved), which is refused";

type Range = [string, number, "ipv4" | "ipv6", string];

const ALWAYS_REFUSED: Range[] = [
  ["169.254.0.0", 16, "ipv4", "a link-local address (169.254.0.0/16, cloud metadata)"],
  ["fe80::", 10, "ipv6", "a link-local address (fe80::/10)"],
  ["fd00:ec2::254", 128, "ipv6", "the cloud metadata address fd00:ec2::254"],
  ["224.0.0.0", 4, "ipv4", "a multicast address"],
  ["240.0.0.0", 4, "ipv4", "a reserved address (240.0.0.0/4, broadcast included)"],
  ["ff00::", 8, "ipv6", "a multicast address"],
];

const PRIVATE: Range[] = [
  ["127.0.0.0", 8, "ipv4", "a loopback address"],
  ["::1", 128, "ipv6", "a loopback address"],
  ["10.0.0.0", 8, "ipv4", "a private address (10.0.0.0/8)"],
  ["172.16.0.0", 12, "ipv4", "a private address (172.16.0.0/12)"],
  ["192.168.0.0", 16, "ipv4", "a private address (192.168.0.0/16)"],
  ["100.64.0.0", 10, "ipv4", "a carrier-grade NAT address (100.64.0.0/10)"],
  ["0.0.0.0", 8, "ipv4", "a 'this network' address (0.0.0.0/8)"],
  ["198.18.0.0", 15, "ipv4", "a benchmarking address (198.18.0.0/15)"],
  ["192.0.0.0", 24, "ipv4", "an IETF protocol address (192.0.0.0/24)"],
  ["fc00::", 7, "ipv6", "a private address (fc00::/7)"],
  ["64:ff9b:1::", 48, "ipv6", "a local-use NAT64 address (64:ff9b:1::/48)"],
  ["::", 128, "ipv6", "the unspecified address (::)"],
];

/** The 16 bytes of an IPv6 address (dotted IPv4 tail allowed), or null. */
function ipv6Bytes(address: string): Uint8Array | null {
  if (isIP(address) !== 6) return null;
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(zeros).fill("0"), ...tailGroups];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = Number.parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 255;
  });
  return bytes;
}

const dottedQuad = (bytes: Uint8Array, from: number) => Array.from(bytes.subarray(from, from + 4)).join(".");
const allZero = (bytes: Uint8Array, from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);

/** How an IPv6 address carries an IPv4 address, if it does. */
type Embedding = "mapped" | "nat64" | "6to4" | "compatible";

/** The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64 well-known prefix, 6to4, IPv4-compatible), or null. */
export function embeddedIpv4(address: string): { ipv4: string; via: Embedding } | null {
  const bytes = ipv6Bytes(address);
  if (!bytes) return null;
  if (allZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return { ipv4: dottedQuad(bytes, 12), via: "mapped" };
  // 64:ff9b::/96
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && allZero(bytes, 4, 12))
    return { ipv4: dottedQuad(bytes, 12), via: "nat64" };
  // 2002::/16: the IPv4 address is the next 32 bits.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return { ipv4: dottedQuad(bytes, 2), via: "6to4" };
  // ::/96 but :: and ::1, which are IPv6's own unspecified and loopback addresses.
  if (allZero(bytes, 0, 12) && !(allZero(bytes, 12, 15) && (bytes[15] ?? 0) <= 1))
    return { ipv4: dottedQuad(bytes, 12), via: "compatible" };
  return null;
}

/**
 * `::ffff:1.2.3.4`, `::ffff:102:304`, `64:ff9b::102:304`, `2002:102:304::` -> `1.2.3.4`; other
 * addresses unchanged (lower case, without a zone index).
 */
export function unmapIpv4(address: string): { address: string; family: 4 | 6 } {
  // A zone index (fe80::1%eth0) does not change which range the address is in.
  const lower = address.toLowerCase().replace(/%.*$/, "");
  if (isIP(lower) === 4) return { address: lower, family: 4 };
  const embedded = embeddedIpv4(lower);
  if (embedded && embedded.via !== "compatible") return { address: embedded.ipv4, family: 4 };
  return { address: lower, family: 6 };
}

function rangeReason(ranges: readonly Range[], address: string, type: "ipv4" | "ipv6"): string | null {
  for (const [network, prefix, rangeType, reason] of ranges) {
    if (rangeType === type && subnetContains(network, prefix, rangeType, address)) return reason;
  }
  return null;
}

/** Why an address is refused, in detail (for logs; null: allowed). */
export function refusedAddressReason(address: string, allowPrivate: boolean): string | null {
  const lower = address.toLowerCase().replace(/%.*$/, "");
  const type = isIP(lower) === 4 ? "ipv4" : isIP(lower) === 6 ? "ipv6" : null;
  if (!type) return `"${address}" is not an IP address`;
  const embedded = type === "ipv6" ? embeddedIpv4(lower) : null;
  if (embedded) {
    const carried =
      rangeReason(ALWAYS_REFUSED, embedded.ipv4, "ipv4") ?? (allowPrivate ? null : rangeReason(PRIVATE, embedded.ipv4, "ipv4"));
    if (carried) return `${carried}, carried in an ${EMBEDDING_NAMES[embedded.via]} address`;
    if (embedded.via === "compatible" && !allowPrivate) return "an IPv4-compatible address (::/96, deprecated)";
    return null;
  }
  return rangeReason(ALWAYS_REFUSED, lower, type) ?? (allowPrivate ? null : rangeReason(PRIVATE, lower, type));
}

const EMBEDDING_NAMES: Record<Embedding, string> = {
  mapped: "IPv4-mapped (::ffff:0:0/96)",
  nat64: "NAT64 (64:ff9b::/96)",
  "6to4": "6to4 (2002::/16)",
  compatible: "IPv4-compatible (::/96)",
};

function subnetContains(network: string, prefix: number, type: "ipv4" | "ipv6", address: string): boolean {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return list.check(address, type);
}

async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

/** A refusal that reveals nothing beyond what the URL itself says: the same words for both. */
const refusal = (reason: string): UrlCheck => ({ ok: false, reason, detail: reason });

/** Checks a webhook URL (see the module comment); resolves the host unless it is an IP literal. */
export async function checkWebhookUrl(raw: string, options: UrlSafetyOptions): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refusal("must be an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return refusal("must be an http(s) URL");
  if (options.httpsOnly && url.protocol !== "https:") return refusal("must be an https URL");
  if (url.username !== "" || url.password !== "") return refusal("must not carry credentials");
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (hostname === "") return refusal("must name a host");

  let addresses: ResolvedAddress[];
  if (isIP(hostname) !== 0) {
    addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.lookup ?? defaultLookup)(hostname);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return refusal(`its host ${hostname} could not be resolved${code ? ` (${code})` : ""}`);
    }
    if (addresses.length === 0) return refusal(`its host ${hostname} has no address`);
  }
  for (const { address } of addresses) {
    const why = refusedAddressReason(address, options.allowPrivate);
    if (why) return { ok: false, reason: REFUSED_ADDRESS_REASON, detail: `${hostname} resolves to ${address}: ${why}` };
  }
  return { ok: true, url, addresses };
}
