import { describe, expect, it } from "vitest";
import { z } from "zod";
import { baseEnvSchema, ConfigError, envBoolean, parseEnv } from "./env.ts";

describe("parseEnv", () => {
  const schema = baseEnvSchema.extend({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    SECRET_TOKEN: z.string().min(8),
    FEATURE: envBoolean.default(false),
  });

  it("applies defaults and coerces values", () => {
    const env = parseEnv(schema, { SECRET_TOKEN: "abcdefgh", FEATURE: "yes" });
    expect(env.PORT).toBe(3000);
    expect(env.FEATURE).toBe(true);
    expect(env.NODE_ENV).toBe("development");
  });

  it("lists every bad variable by name and never echoes values", () => {
    try {
      parseEnv(schema, { PORT: "70000", SECRET_TOKEN: "short-1", NODE_ENV: "staging" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toMatch(/PORT/);
      expect(message).toMatch(/SECRET_TOKEN/);
      expect(message).toMatch(/NODE_ENV/);
      expect(message).not.toContain("short-1");
      expect((error as ConfigError).problems).toHaveLength(3);
    }
  });
});
