import { describe, expect, it } from "vitest";
import { signForwardedAddress, verifyForwardedAddress } from "./forwarded-address.ts";

const SECRET = "forwarded-address-test-secret-0123456789";
const NOW = 1_800_000_000_000;

describe("the MCP server's forwarded client address", () => {
  it("verifies its own signature for IPv4 and IPv6 addresses", () => {
    for (const address of ["203.0.113.7", "2001:db8::1", "::ffff:198.51.100.2"]) {
      expect(verifyForwardedAddress(SECRET, signForwardedAddress(SECRET, address, NOW), NOW + 5_000)).toBe(address);
    }
  });

  it("ignores another secret, a stale or future proof, an edited address and malformed values", () => {
    const header = signForwardedAddress(SECRET, "203.0.113.7", NOW);
    expect(verifyForwardedAddress(`${SECRET}x`, header, NOW)).toBeUndefined();
    expect(verifyForwardedAddress(SECRET, header, NOW + 61_000)).toBeUndefined();
    expect(verifyForwardedAddress(SECRET, header, NOW - 61_000)).toBeUndefined();
    expect(verifyForwardedAddress(SECRET, header.replace("203.0.113.7", "203.0.113.8"), NOW)).toBeUndefined();
    expect(verifyForwardedAddress(SECRET, signForwardedAddress(SECRET, "not-an-ip", NOW), NOW)).toBeUndefined();
    for (const value of [undefined, "", "203.0.113.7", "v1.1.203.0.113.7.short", `${header}x`]) {
      expect(verifyForwardedAddress(SECRET, value, NOW)).toBeUndefined();
    }
  });
});
