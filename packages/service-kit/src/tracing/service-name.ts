import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The service an app's folder holds: its package name without the scope, or the folder's name. */
export function serviceNameOf(appDir: string): string {
  try {
    const { name } = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")) as { name?: unknown };
    if (typeof name === "string" && name.length > 0) return name.replace(/^@[^/]+\//, "");
  } catch {
    // no package.json: the folder's name
  }
  return appDir.split(/[\\/]/).filter(Boolean).pop() ?? "service";
}
