/**
 * Waits, when the current clock minute has less than `needMs` left, for the next one to begin:
 * the rate limits count in fixed clock-minute windows (read from Redis's clock, this machine's),
 * so a test that must stay within one window starts early in one.
 */
export async function startOfRoomyMinute(needMs = 20_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 250));
}
