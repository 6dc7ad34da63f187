import { describe, expect, it } from "vitest";
import { type K8sObject, loadManifests, ofKind } from "./k8s-manifests.ts";
import { settingsProblems } from "./support/run-settings.ts";

// Each Deployment's container gets its settings from ConfigMaps, Secrets and its own env: run the
// app's settings loader (production mode, as config.yaml sets) on exactly that environment, with
// the example Secrets' values, so a setting an app requires and no manifest gives fails here and
// not in a crash-looping pod. Placeholders that must be keys are given a well-formed stand-in.
const { objects, external } = loadManifests();
const all = [...objects, ...external];
const STAND_INS: Array<[RegExp, string]> = [
  [/_SEALING_KEY$/, Buffer.alloc(32, 3).toString("base64")],
  [/^TAX_VENDOR_ID$/, "0000"],
];

function dataOf(kind: string, name: string): Record<string, string> {
  const object = all.find((candidate) => candidate.kind === kind && candidate.metadata.name === name) as
    | (K8sObject & { data?: Record<string, string>; stringData?: Record<string, string> })
    | undefined;
  return { ...object?.data, ...object?.stringData };
}

function environmentOf(container: {
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(environment, dataOf("ConfigMap", source.configMapRef.name));
    if (source.secretRef) Object.assign(environment, dataOf("Secret", source.secretRef.name));
  }
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    const value = ref ? dataOf("Secret", ref.name)[ref.key] : variable.value;
    if (value !== undefined) environment[variable.name] = value;
  }
  for (const [name, value] of Object.entries(environment)) {
    const standIn = STAND_INS.find(([pattern]) => pattern.test(name) && value.startsWith("CHANGE_ME"));
    if (standIn) environment[name] = standIn[1];
  }
  return environment;
}

describe("infra/k8s settings", () => {
  it("gives every app's container the settings it requires in production", async () => {
    const deployments = ofKind(objects, "Deployment");
    const environments = Object.fromEntries(
      deployments.map((deployment) => [deployment.metadata.name, environmentOf(deployment.spec.template.spec.containers[0])]),
    );
    for (const [app, environment] of Object.entries(environments)) expect(environment.NODE_ENV, app).toBe("production");
    expect(await settingsProblems(environments)).toEqual(
      Object.fromEntries(deployments.map((deployment) => [deployment.metadata.name, ""])),
    );
  }, 120_000);
});
