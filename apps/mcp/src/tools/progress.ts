import type { FilingProgress } from "@dormant/client";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export interface ProgressReporter {
  /** A `waitForFinal` progress callback; undefined when the caller asked for no progress (no progressToken). */
  onProgress: ((progress: FilingProgress) => void) | undefined;
  /** Resolves once every notification sent so far is written, so none arrives after the tool's result. */
  flushed(): Promise<void>;
}

/** Sends MCP `notifications/progress` for the request at each status change; `progress` counts the changes seen. */
export function progressReporter(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): ProgressReporter {
  const progressToken = extra._meta?.progressToken;
  const sending: Promise<void>[] = [];
  const flushed = async () => {
    await Promise.all(sending);
  };
  if (progressToken === undefined) return { onProgress: undefined, flushed };
  let changes = 0;
  return {
    onProgress: ({ status, previousStatus, elapsedMs }) => {
      changes += 1;
      const message = `${previousStatus ? `${previousStatus} -> ` : ""}${status} after ${Math.round(elapsedMs / 1000)} s`;
      sending.push(
        extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: changes, message } }).catch(() => {
          // The caller went away: the request's signal ends the wait.
        }),
      );
    },
    flushed,
  };
}
