import { describe, expect, it } from "vitest";
import { checkWebhookUrl, refusedAddressReason, unmapIpv4 } from "./url-safety.ts";

const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: (address.includes(":") ? 6 : 4) as 4 | 6 }));

describe("webhook URL safety", () => {
  it.each([
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["fe80::1", "link-local"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["224.0.0.1", "multicast"],
  ])("always refuses %s, even when private addresses are allowed", (address, words) => {
    expect(refusedAddressReason(address, true)).toContain(words);
    expect(refusedAddressReason(address, false)).toContain(words);
  });

  it.each([
    "127.0.0.1",
    "127.1.2.3",
    "::1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "100.127.255.254",
    "0.0.0.0",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "0:0:0:0:0:ffff:10.0.0.1",
  ])("refuses %s unless private addresses are allowed", (address) => {
    expect(refusedAddressReason(address, false)).not.toBeNull();
    expect(refusedAddressReason(address, true)).toBeNull();
  });

  it.each([
    // NAT64 (well-known prefix, RFC 6052) and 6to4 (RFC 3056) carry an IPv4 address: judged as it.
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["64:ff9b::169.254.169.254", "link-local"],
    ["2002:a9fe:a9fe::", "link-local"],
    ["2002:a9fe:a9fe:1::1", "link-local"],
    ["::169.254.169.254", "link-local"],
    ["64:ff9b::e000:1", "multicast"],
    // Reserved (240.0.0.0/4, the broadcast address in it): never a webhook receiver.
    ["240.0.0.1", "reserved"],
    ["255.255.255.254", "reserved"],
    ["2002:f000:1::", "reserved"],
  ])("always refuses %s (an IPv4 address inside IPv6, or reserved)", (address, words) => {
    expect(refusedAddressReason(address, true)).toContain(words);
    expect(refusedAddressReason(address, false)).toContain(words);
  });

  it.each([
    "198.18.0.1",
    "198.19.255.254",
    "192.0.0.1",
    "192.0.0.170",
    "64:ff9b::7f00:1",
    "64:ff9b::10.0.0.1",
    "64:ff9b:1::a00:1",
    "64:ff9b:1:ffff::1",
    "2002:7f00:1::",
    "2002:c0a8:101::1",
    "::10.0.0.1",
    "::8.8.8.8",
    "::0.0.0.2",
  ])("refuses %s unless private addresses are allowed (NAT64, 6to4, IPv4-compatible, benchmarking, IETF protocol)", (address) => {
    expect(refusedAddressReason(address, false)).not.toBeNull();
    expect(refusedAddressReason(address, true)).toBeNull();
  });

  it("unwraps NAT64 and 6to4 addresses to the IPv4 address they carry", () => {
    expect(unmapIpv4("64:ff9b::a9fe:a9fe")).toEqual({ address: "169.254.169.254", family: 4 });
    expect(unmapIpv4("64:FF9B::8.8.8.8")).toEqual({ address: "8.8.8.8", family: 4 });
    expect(unmapIpv4("2002:0808:0808::1")).toEqual({ address: "8.8.8.8", family: 4 });
    expect(unmapIpv4("2001:db8::a9fe:a9fe")).toEqual({ address: "2001:db8::a9fe:a9fe", family: 6 });
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "198.20.0.1",
    "192.0.1.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows public %s", (address) => {
    expect(refusedAddressReason(address, false)).toBeNull();
  });

  it("unmaps IPv4-mapped IPv6 addresses in both notations", () => {
    expect(unmapIpv4("::ffff:1.2.3.4")).toEqual({ address: "1.2.3.4", family: 4 });
    expect(unmapIpv4("::FFFF:0102:0304")).toEqual({ address: "1.2.3.4", family: 4 });
    expect(unmapIpv4("2001:db8::1")).toEqual({ address: "2001:db8::1", family: 6 });
  });

  it("refuses http in production (https only), accepts it otherwise", async () => {
    const lookup = resolvesTo("93.184.216.34");
    expect(await checkWebhookUrl("http://agent.example.com/hook", { httpsOnly: true, allowPrivate: false, lookup })).toMatchObject({
      ok: false,
      reason: "must be an https URL",
    });
    expect((await checkWebhookUrl("https://agent.example.com/hook", { httpsOnly: true, allowPrivate: false, lookup })).ok).toBe(true);
    expect((await checkWebhookUrl("http://agent.example.com/hook", { httpsOnly: false, allowPrivate: false, lookup })).ok).toBe(true);
  });

  it("refuses a host when any of its addresses is refused", async () => {
    const check = await checkWebhookUrl("https://mixed.example.com/", {
      httpsOnly: true,
      allowPrivate: false,
      lookup: resolvesTo("93.184.216.34", "10.0.0.5"),
    });
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining("10.0.0.5") });
  });

  it("says why in general terms, never the address a name resolved to (that is for the log)", async () => {
    const check = await checkWebhookUrl("https://db.internal.example.com/hook", {
      httpsOnly: true,
      allowPrivate: false,
      lookup: resolvesTo("93.184.216.34", "10.20.30.40"),
    });
    if (check.ok) throw new Error("expected a refusal");
    expect(check.reason).toBe(
      "its host resolves to a non-public address (private, loopback, link-local, cloud metadata or reserved), which is refused",
    );
    expect(check.reason).not.toMatch(/10\.20|93\.184|internal/);
    expect(check.detail).toBe("db.internal.example.com resolves to 10.20.30.40: a private address (10.0.0.0/8)");
    const metadata = await checkWebhookUrl("https://metadata.example.com/", {
      httpsOnly: true,
      allowPrivate: true,
      lookup: resolvesTo("64:ff9b::a9fe:a9fe"),
    });
    if (metadata.ok) throw new Error("expected a refusal");
    expect(metadata.reason).not.toMatch(/a9fe|169\.254|64:ff9b/);
    expect(metadata.detail).toContain("64:ff9b::a9fe:a9fe");
  });

  it("checks IP literals without DNS, including bracketed IPv6", async () => {
    const noDns = async () => {
      throw new Error("no DNS expected");
    };
    const options = { httpsOnly: false, allowPrivate: true, lookup: noDns };
    expect(await checkWebhookUrl("http://169.254.169.254/latest/meta-data", options)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl("http://[fd00:ec2::254]/", options)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl("http://[::ffff:169.254.169.254]/", options)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl("http://127.0.0.1:8080/hook", options)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl("http://127.0.0.1:8080/hook", { ...options, allowPrivate: false })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("loopback"),
    });
  });

  it("resolves real names: localhost is loopback", async () => {
    expect(await checkWebhookUrl("http://localhost:1/", { httpsOnly: false, allowPrivate: false })).toMatchObject({ ok: false });
    expect(await checkWebhookUrl("http://localhost:1/", { httpsOnly: false, allowPrivate: true })).toMatchObject({ ok: true });
  });

  it("refuses a host that does not resolve, URLs with credentials and other schemes", async () => {
    const options = { httpsOnly: false, allowPrivate: true };
    expect(await checkWebhookUrl("http://no-such-host.invalid/", options)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl("http://user:pw@127.0.0.1/", options)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl("ftp://127.0.0.1/", options)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl("not a url", options)).toMatchObject({ ok: false });
  });
});
