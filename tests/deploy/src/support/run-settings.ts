import { spawn } from "node:child_process";
import { repoPath } from "../repo.ts";

/** Runs support/check-settings.ts (its own process, under tsx) with `input` on stdin; resolves with its JSON answer. */
export function runCheckSettings<T>(args: string[], input = ""): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", repoPath("tests/deploy/src/support/check-settings.ts"), ...args], {
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as T);
      else reject(new Error(`check-settings.ts ${args.join(" ")} exited with ${code}: ${stderr.trim()}`));
    });
    child.stdin.end(input);
  });
}

/** Each app's settings loader (production mode comes from the environments) on its environment: app -> "" or the problems. */
export function settingsProblems(environments: Record<string, Record<string, string>>): Promise<Record<string, string>> {
  return runCheckSettings(["--check"], JSON.stringify(environments));
}
