import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments } from "yaml";

/** The repository's root directory. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export function repoPath(relative: string): string {
  return `${REPO_ROOT}${relative}`;
}

/** One YAML document (anchors and `<<` merge keys resolved, as Docker Compose reads them). */
export function readYaml<T>(relative: string): T {
  return parse(readFileSync(repoPath(relative), "utf8"), { merge: true }) as T;
}

/** Every document of a multi-document YAML file (Kubernetes manifests); empty ones dropped. */
export function readYamlDocuments<T>(relative: string): T[] {
  return parseAllDocuments(readFileSync(repoPath(relative), "utf8"))
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`${relative}: ${document.errors[0]!.message}`);
      return document.toJS() as T | null;
    })
    .filter((document): document is T => document !== null);
}

/** The apps of the system: the directories of apps/ whose package.json has a `dormant.main` process. */
export function appNames(): string[] {
  return readdirSync(repoPath("apps"))
    .filter((name) => existsSync(repoPath(`apps/${name}/package.json`)))
    .filter((name) => JSON.parse(readFileSync(repoPath(`apps/${name}/package.json`), "utf8")).dormant?.main)
    .sort();
}
