import { inject } from "vitest";
import type { SharedSystemUrls } from "./global-setup.ts";

/** The browser project's one system (started by the first file that asks; see global-setup.ts). */
export interface SharedSystem extends SharedSystemUrls {
  /** Apps of the shared system that exited without being told to (should be none), with their last output. */
  crashReport(): Promise<string>;
}

async function control(path: string): Promise<string> {
  const response = await fetch(`${inject("browserSystemControl")}${path}`);
  const body = await response.text();
  if (!response.ok) throw new Error(`the shared system's ${path} failed: ${body}`);
  return body;
}

/** Starts the shared system if no file has yet (the others wait for the same start) and answers it. */
export async function sharedSystem(): Promise<SharedSystem> {
  const urls = JSON.parse(await control("/system")) as SharedSystemUrls;
  return { ...urls, crashReport: () => control("/crash-report") };
}
