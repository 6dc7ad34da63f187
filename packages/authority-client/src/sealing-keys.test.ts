import { DEVELOPMENT_SEALING_KEY } from "@dormant/contracts";
import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { resolveSealingKeys } from "./sealing-keys.ts";

const key = (byte: number) => Buffer.alloc(32, byte).toString("base64");

function problems(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join("\n");
  }
  throw new Error("expected a ConfigError");
}

describe("resolveSealingKeys", () => {
  it("uses the development key outside production when none is configured", () => {
    const keys = resolveSealingKeys({ NODE_ENV: "development", CREDENTIALS_SEALING_KEY_ID: "k1" });
    expect(keys.map((k) => k.id)).toEqual([DEVELOPMENT_SEALING_KEY.id]);
  });

  it("refuses to start in production without a key", () => {
    expect(problems(() => resolveSealingKeys({ NODE_ENV: "production", CREDENTIALS_SEALING_KEY_ID: "k1" }))).toContain(
      "required in production",
    );
  });

  it("takes the current key and the retired ones of a rotation", () => {
    const keys = resolveSealingKeys({
      NODE_ENV: "production",
      CREDENTIALS_SEALING_KEY: key(1),
      CREDENTIALS_SEALING_KEY_ID: "2026-05",
      CREDENTIALS_SEALING_KEYS_RETIRED: `2026-01:${key(2)}, 2025-09:${key(3)}`,
    });
    expect(keys.map((k) => k.id)).toEqual(["2026-05", "2026-01", "2025-09"]);
    expect(keys[1]?.key).toEqual(Buffer.alloc(32, 2));
  });

  it("names bad entries without echoing them", () => {
    const text = problems(() =>
      resolveSealingKeys({
        NODE_ENV: "development",
        CREDENTIALS_SEALING_KEY: "c2hvcnQ=",
        CREDENTIALS_SEALING_KEY_ID: "k1",
        CREDENTIALS_SEALING_KEYS_RETIRED: `nocolon, old:${key(4)}`,
      }),
    );
    expect(text).toContain("CREDENTIALS_SEALING_KEY: must be 32 bytes");
    expect(text).toContain("CREDENTIALS_SEALING_KEYS_RETIRED: entry 1");
    expect(text).not.toContain("c2hvcnQ=");
  });
});
