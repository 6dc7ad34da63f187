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

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])("allows public %s", (address) => {
    expect(refusedAddressReason(address, false)).toBeNull();
  });

  it("unmaps IPv4-mapped IPv6 addresses in both notations", () => {
    expect(unmapIpv4("::ffff:1.2.3.4")).toEqual({ address: "1.2.3.4", family: 4 });
    expect(unmapIpv4("::FFFF:0102:0304")).toEqual({ address: "1.2.3.4", family: 4 });
    expect(unmapIpv4("2001:db8::1")).toEqual({ address: "2001:db8::1", family: 6 });
  });

  it("refuses http in production (https only), accepts it otherwise", async () => {
    const lookup = resolvesTo("93.184.216.34");
    expect(await checkWebhookUrl("http://agent.example.com/hook", { httpsOnly: true, allowPrivate: false, lookup })).toEqual({
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
    expect(check).toMatchObject({ ok: false, reason: expect.stringContaining("10.0.0.5") });
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
