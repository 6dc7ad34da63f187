import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { loadRegistrySubmitterConfig } from "./env.ts";

describe("registry submitter configuration: presenter authentication method", () => {
  it("sends Method clear by default (README, Protocol decisions)", () => {
    expect(loadRegistrySubmitterConfig({}).registry.presenter.authMethod).toBe("clear");
  });

  it("takes CHMD5 or clear from REGISTRY_PRESENTER_AUTH_METHOD", () => {
    expect(loadRegistrySubmitterConfig({ REGISTRY_PRESENTER_AUTH_METHOD: "CHMD5" }).registry.presenter.authMethod).toBe("CHMD5");
    expect(loadRegistrySubmitterConfig({ REGISTRY_PRESENTER_AUTH_METHOD: "clear" }).registry.presenter.authMethod).toBe("clear");
  });

  it("refuses any other method, naming the variable", () => {
    try {
      loadRegistrySubmitterConfig({ REGISTRY_PRESENTER_AUTH_METHOD: "W3Csigned" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join("\n")).toContain("REGISTRY_PRESENTER_AUTH_METHOD");
    }
  });
});
