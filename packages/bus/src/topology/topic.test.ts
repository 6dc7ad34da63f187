import { describe, expect, it } from "vitest";
import { topicMatches } from "./topic.ts";

describe("topicMatches", () => {
  it.each([
    ["filing.accepted", "filing.accepted", true],
    ["filing.accepted", "filing.rejected", false],
    ["filing.*", "filing.accepted", true],
    ["filing.*", "filing.accepted.late", false],
    ["filing.#", "filing", true],
    ["filing.#", "filing.accepted.late", true],
    ["#", "anything.at.all", true],
    ["#.late", "filing.accepted.late", true],
    ["*.accepted", "filing.accepted", true],
    ["*.accepted", "accepted", false],
  ])("%s ~ %s = %s", (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
