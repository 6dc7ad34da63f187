/** `https://host`, `https://host/` and `https://host/api/v1` all name the same API root (as the client reads them). */
export function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/api/v1") ? trimmed : `${trimmed}/api/v1`;
}
