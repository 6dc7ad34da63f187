import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

/**
 * Whether the module at `moduleUrl` (its `import.meta.url`) is the script node was started with
 * (`node --import tsx path/to/cli.ts`), following symlinks: a CLI module that is also imported by
 * the root admin CLI runs itself only when started directly.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === moduleUrl;
  } catch {
    return false;
  }
}
