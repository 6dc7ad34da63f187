import { readYaml, readYamlDocuments } from "./repo.ts";

/** The parts of a Kubernetes object the reference checks read. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field by the tests
  spec?: any;
}

export interface LoadedManifests {
  /** Files named by kustomization.yaml `resources`. */
  resources: string[];
  /** Every object of those files. */
  objects: Array<K8sObject & { file: string }>;
  /** Objects supplied outside the kustomization, documented in secrets.example.yaml. */
  external: K8sObject[];
}

export const K8S_DIR = "infra/k8s";

export function loadManifests(): LoadedManifests {
  const kustomization = readYaml<{ resources: string[] }>(`${K8S_DIR}/kustomization.yaml`);
  const objects = kustomization.resources.flatMap((file) =>
    readYamlDocuments<K8sObject>(`${K8S_DIR}/${file}`).map((object) => ({ ...object, file })),
  );
  return { resources: kustomization.resources, objects, external: readYamlDocuments<K8sObject>(`${K8S_DIR}/secrets.example.yaml`) };
}

export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((object) => object.kind === kind);
}

/** Every container of a workload's pod template, init containers included. */
// biome-ignore lint/suspicious/noExplicitAny: see K8sObject
export function containersOf(deployment: K8sObject): any[] {
  const pod = deployment.spec?.template?.spec ?? {};
  return [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
}
