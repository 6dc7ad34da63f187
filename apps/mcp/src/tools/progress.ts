import type { FilingProgress } from "@dormant/client";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/**
 * A `waitForFinal` progress callback that sends MCP `notifications/progress` for the request, or
 * undefined when the caller asked for none (no progressToken). `progress` counts the changes seen.
 */
export function progressReporter(
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
): ((progress: FilingProgress) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let changes = 0;
  return ({ status, previousStatus, elapsedMs }) => {
    changes += 1;
    const message = `${previousStatus ? `${previousStatus} -> ` : ""}${status} after ${Math.round(elapsedMs / 1000)} s`;
    void extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: changes, message } }).catch(() => {
      // The caller went away: the wait ends on its own at its deadline.
    });
  };
}
