/** Page geometry (points, A4 portrait), type sizes and colours shared by every PDF. */

export const PAGE = {
  size: "A4",
  width: 595.28,
  height: 841.89,
  marginX: 56,
  /** Where content starts without and with the sandbox banner. */
  contentTop: 78,
  contentTopSandbox: 106,
  contentBottom: 70,
} as const;

export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.marginX;

export const SIZE = {
  title: 20,
  subtitle: 11,
  heading: 11,
  body: 9.5,
  small: 8,
} as const;

export const COLOUR = {
  text: "#1a1a1a",
  muted: "#5f6368",
  accent: "#1f3a5f",
  rule: "#c9ced6",
  band: "#f2f4f7",
  sandbox: "#b3261e",
  accepted: "#1e6b3a",
} as const;

export const AUTHOR = "Dormant filing platform";
export const SANDBOX_MARK = "SANDBOX \u2014 NOT FILED";
