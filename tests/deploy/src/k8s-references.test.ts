import { existsSync, readdirSync } from "node:fs";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { containersOf, K8S_DIR, type K8sObject, loadManifests, ofKind } from "./k8s-manifests.ts";
import { appNames, repoPath } from "./repo.ts";

// Parses every manifest of infra/k8s and checks the references between them, the way a cluster
// would resolve them: a broken name is a pod that never starts or a scaler that never scales.
const { resources, objects, external } = loadManifests();
const deployments = ofKind(objects, "Deployment");
const podLabels = (deployment: K8sObject): Record<string, string> => deployment.spec.template.metadata.labels ?? {};
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);
const defined = (kind: string, name: string) =>
  [...objects, ...external].find((object) => object.kind === kind && object.metadata.name === name);

describe("infra/k8s manifests", () => {
  it("lists every manifest in the kustomization, and every listed file exists", () => {
    for (const file of resources) expect(existsSync(repoPath(`${K8S_DIR}/${file}`)), file).toBe(true);
    const onDisk = readdirSync(repoPath(K8S_DIR)).filter((file) => file.endsWith(".yaml"));
    expect(onDisk.filter((file) => !["kustomization.yaml", "secrets.example.yaml"].includes(file)).sort()).toEqual([...resources].sort());
  });

  it("runs every app as a Deployment of its own image, with a PodDisruptionBudget selecting its pods", () => {
    const budgets = ofKind(objects, "PodDisruptionBudget");
    for (const app of appNames()) {
      const deployment = deployments.find((candidate) => candidate.metadata.name === app);
      expect(deployment, `Deployment ${app}`).toBeDefined();
      expect(selects(deployment!.spec.selector.matchLabels, podLabels(deployment!)), `${app} selector`).toBe(true);
      expect(containersOf(deployment!).every((container) => String(container.image).startsWith(`dormant/${app}:`))).toBe(true);
      expect(
        budgets.some((budget) => selects(budget.spec.selector.matchLabels, podLabels(deployment!))),
        `PDB for ${app}`,
      ).toBe(true);
    }
    for (const budget of budgets) {
      expect(
        deployments.some((deployment) => selects(budget.spec.selector.matchLabels, podLabels(deployment))),
        budget.metadata.name,
      ).toBe(true);
      expect(budget.spec.minAvailable ?? budget.spec.maxUnavailable).toBeDefined();
    }
  });

  it("probes every app's ops endpoints on a port its container declares", () => {
    for (const deployment of deployments) {
      for (const container of deployment.spec.template.spec.containers) {
        const ports: Array<{ name?: string; containerPort: number }> = container.ports ?? [];
        for (const probe of ["readinessProbe", "livenessProbe"]) {
          const check = container[probe]?.httpGet;
          expect(check, `${deployment.metadata.name} ${probe}`).toBeDefined();
          expect(check.path).toBe(probe === "readinessProbe" ? "/readyz" : "/healthz");
          expect(
            ports.some((port) => port.name === check.port || port.containerPort === check.port),
            `${deployment.metadata.name} ${probe} port`,
          ).toBe(true);
        }
      }
    }
  });

  it("runs the migrations of every app with a database, with the compiled migrate entry", () => {
    for (const deployment of deployments) {
      const app = deployment.metadata.name;
      const init = deployment.spec.template.spec.initContainers ?? [];
      const hasMigrations = existsSync(repoPath(`apps/${app}/src/migrate.ts`));
      expect(
        init.some((container: { command?: string[] }) => container.command?.join(" ") === "node src/migrate.js"),
        app,
      ).toBe(hasMigrations);
    }
  });

  it("refers only to ConfigMaps and Secrets of the kustomization or documented as supplied outside it", () => {
    for (const deployment of deployments) {
      for (const container of containersOf(deployment)) {
        for (const source of container.envFrom ?? []) {
          if (source.configMapRef) expect(defined("ConfigMap", source.configMapRef.name), source.configMapRef.name).toBeDefined();
          if (source.secretRef) expect(defined("Secret", source.secretRef.name), source.secretRef.name).toBeDefined();
        }
        for (const variable of container.env ?? []) {
          const secret = variable.valueFrom?.secretKeyRef;
          if (secret) {
            const object = defined("Secret", secret.name) as { stringData?: object; data?: object } | undefined;
            expect(object, secret.name).toBeDefined();
            expect(Object.keys({ ...object?.data, ...object?.stringData }), `${secret.name} key`).toContain(secret.key);
          }
        }
      }
    }
  });

  it("scales the submitters with KEDA on their poll queues, authenticated by reference to a Secret", () => {
    const queues: string[] = [...PLATFORM_TOPOLOGY.workQueues, ...PLATFORM_TOPOLOGY.rpcQueues].map((queue) => queue.name);
    const scalers = ofKind(objects, "ScaledObject");
    for (const scaler of scalers) {
      const target = scaler.spec.scaleTargetRef;
      expect(target.kind ?? "Deployment").toBe("Deployment");
      expect(
        deployments.some((deployment) => deployment.metadata.name === target.name),
        target.name,
      ).toBe(true);
      for (const trigger of scaler.spec.triggers) {
        expect(trigger.type).toBe("rabbitmq");
        expect(queues, `${scaler.metadata.name} trigger`).toContain(trigger.metadata.queueName);
        const auth = objects.find(
          (object) => object.kind === "TriggerAuthentication" && object.metadata.name === trigger.authenticationRef?.name,
        );
        expect(auth, `TriggerAuthentication ${trigger.authenticationRef?.name}`).toBeDefined();
      }
    }
    const pollQueues = { "tax-submitter": "tax.poll", "registry-submitter": "registry.poll" };
    for (const [app, queue] of Object.entries(pollQueues)) {
      const scaler = scalers.find((candidate) => candidate.spec.scaleTargetRef.name === app);
      expect(scaler?.spec.triggers.map((trigger: { metadata: { queueName: string } }) => trigger.metadata.queueName)).toContain(queue);
    }
    for (const auth of ofKind(objects, "TriggerAuthentication")) {
      expect(auth.spec.secretTargetRef.length).toBeGreaterThan(0);
      for (const ref of auth.spec.secretTargetRef) {
        const secret = defined("Secret", ref.name);
        expect(secret, ref.name).toBeDefined();
        expect(Object.keys({ ...secret!.spec, ...(secret as { stringData?: object }).stringData })).toContain(ref.key);
      }
    }
  });

  it("points every Service at a Deployment's pods and a port they declare", () => {
    for (const service of ofKind(objects, "Service")) {
      const deployment = deployments.find((candidate) => selects(service.spec.selector, podLabels(candidate)));
      expect(deployment, service.metadata.name).toBeDefined();
      const ports: Array<{ name?: string; containerPort: number }> = deployment!.spec.template.spec.containers.flatMap(
        (container: { ports?: unknown[] }) => container.ports ?? [],
      );
      for (const port of service.spec.ports) {
        const target = port.targetPort ?? port.port;
        expect(
          ports.some((declared) => declared.name === target || declared.containerPort === target),
          `${service.metadata.name} ${target}`,
        ).toBe(true);
      }
    }
  });
});
