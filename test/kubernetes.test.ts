/**
 * deploy/kubernetes: the generated files are current; every kustomization renders with the real
 * `kubectl kustomize`; every object validates against the upstream Kubernetes and
 * prometheus-operator schemas (kubernetes-models); and what the manifests tell the exporter
 * (arguments, environment, ports, probe paths, mounted files, the config itself) is what the
 * exporter accepts, checked with its own parser, HTTP app and `--check-config`.
 */
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { basename, dirname, join } from "node:path";
import {
  PrometheusRule,
  ServiceMonitor,
} from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
import { ScrapeConfig } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1alpha1";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import { ConfigMap, Service, ServiceAccount } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import {
  DASHBOARD_COPIES,
  dashboardFiles,
  KUSTOMIZE_DIR,
  POD_PATHS,
  RULE_FILES,
  renderManifests,
} from "../scripts/manifests.js";
import { type CliArgs, parseCli } from "../src/cli/args.js";
import { loadConfig } from "../src/config/load.js";
import { createApp } from "../src/http/app.js";
import { formatSetting, resolveRuntime } from "../src/runtime/resolve.js";
import { RELAUNCH_MARKER, RUNTIME_CONTROLS, RUNTIME_SETTINGS } from "../src/runtime/settings.js";
import { imageStart } from "./helpers/image.js";
import { tempDir } from "./helpers/tempDir.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const ROOT = join(import.meta.dirname, "..");
const MAIN = join(ROOT, "dist", "main.js");
const kubectl = toolOrSkip("kubectl");

// biome-ignore lint/suspicious/noExplicitAny: rendered objects are checked by their schemas, then read.
type K8sObject = any;

/** The schema of every kind the manifests may contain; anything else fails the test. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/ConfigMap": ConfigMap,
  "v1/Service": Service,
  "v1/ServiceAccount": ServiceAccount,
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "monitoring.coreos.com/v1/ServiceMonitor": ServiceMonitor,
  "monitoring.coreos.com/v1/PrometheusRule": PrometheusRule,
  "monitoring.coreos.com/v1alpha1/ScrapeConfig": ScrapeConfig,
};

function kustomize(dir: string): K8sObject[] {
  const r = spawnSync(toolPath(kubectl), ["kustomize", dir], { encoding: "utf8", timeout: 30_000 });
  if (r.status !== 0) throw new Error(`kubectl kustomize ${dir} failed:\n${r.stderr}`);
  return parseAllDocuments(r.stdout).map((d) => d.toJS() as K8sObject);
}

function find(objects: readonly K8sObject[], kind: string, name?: string): K8sObject {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name ?? ""}, found ${found.length}`);
  return found[0];
}

function workload(objects: readonly K8sObject[]): K8sObject {
  const w = objects.filter((o) => o.kind === "Deployment" || o.kind === "StatefulSet");
  expect(w).toHaveLength(1);
  return w[0];
}

function exporterContainer(w: K8sObject): K8sObject {
  return w.spec.template.spec.containers.find((c: K8sObject) => c.name === "exporter");
}

/** True when every label the selector names is on `labels` with the same value. */
function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** The container's literal environment (downward-API variables are handled by the caller). */
function literalEnv(container: K8sObject): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? [])
      .filter((e: K8sObject) => e.value !== undefined)
      .map((e: K8sObject) => [e.name, e.value]),
  );
}

/** The file a mount path + file name lead to, and the volume behind that mount. */
function volumeAt(w: K8sObject, container: K8sObject, path: string): { volume: K8sObject; key: string } {
  const mount = container.volumeMounts.find((m: K8sObject) => m.mountPath === dirname(path));
  expect(mount, `a volume mounted at ${dirname(path)}`).toBeDefined();
  expect(mount.subPath, "a subPath mount never sees ConfigMap or Secret updates").toBeUndefined();
  const volume = w.spec.template.spec.volumes.find((v: K8sObject) => v.name === mount.name);
  return { volume, key: basename(path) };
}

describe("generated manifests", () => {
  it("are what `npm run manifests` writes (rerun it after changing their sources)", () => {
    const files = renderManifests(ROOT);
    for (const [path, content] of files) expect(readFileSync(join(ROOT, path), "utf8"), path).toBe(content);
    expect(readdirSync(join(ROOT, DASHBOARD_COPIES)).sort()).toEqual(dashboardFiles(ROOT));
  });
});

describe.skipIf(kubectl.skip)("kustomizations (kubectl kustomize)", () => {
  const rendered = new Map(
    kubectl.skip
      ? []
      : ["base", "overlays/sharded", "overlays/prometheus-operator", "overlays/native-export"].map((d) => [
          d,
          kustomize(join(ROOT, KUSTOMIZE_DIR, d)),
        ]),
  );

  it.each([...rendered.keys()])("%s: every object validates against its upstream schema", (dir) => {
    const objects = rendered.get(dir) ?? [];
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect(Model, `a schema for ${o.apiVersion} ${o.kind}`).toBeDefined();
      expect(
        () => new (Model as NonNullable<typeof Model>)(o as never).validate(),
        `${o.kind} ${o.metadata.name}`,
      ).not.toThrow();
    }
  });

  it.each([...rendered.keys()])(
    "%s: a hardened pod that reads its config and key from mounted files",
    (dir) => {
      const objects = rendered.get(dir) ?? [];
      const w = workload(objects);
      const pod = w.spec.template.spec;
      const c = exporterContainer(w);
      expect(find(objects, "ServiceAccount", pod.serviceAccountName).automountServiceAccountToken).toBe(
        false,
      );
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: "RuntimeDefault" },
      });
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(c.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      });
      // The sizing of docs/operations.md: the limit stays above the highest peak RSS measured (257 MiB).
      expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(mebibytes(c.resources.limits.memory)).toBeGreaterThanOrEqual(257);

      // The arguments and environment, through the exporter's own parser.
      const args: CliArgs = parseCli(c.args, { env: literalEnv(c), hostname: `${w.metadata.name}-0` });
      expect(args.mode).toBe("run");
      expect(args.configPath).toBe(POD_PATHS.config);
      const config = volumeAt(w, c, POD_PATHS.config);
      const configMap = find(objects, "ConfigMap", config.volume.configMap.name);
      const configText: string = configMap.data[config.key];
      expect(configText).toBeDefined();
      expect(parse(configText).api.api_key_file).toBe(POD_PATHS.apiKeyFile);
      const key = volumeAt(w, c, POD_PATHS.apiKeyFile);
      expect(key.volume.secret.secretName).toBe("vdbcloud-exporter-api-key");
      expect(key.key).toBe("api-key");
    },
  );

  it.each([...rendered.keys()])(
    "%s: the pod runs with the runtime settings: the image's entrypoint, none of them changed",
    (dir) => {
      const c = exporterContainer(workload(rendered.get(dir) ?? []));
      // A `command` would replace the entrypoint and lose its node flags.
      expect(c.command).toBeUndefined();
      const names = (c.env ?? []).map((e: K8sObject) => e.name);
      for (const k of [
        ...Object.keys(RUNTIME_SETTINGS.env),
        ...Object.values(RUNTIME_CONTROLS),
        RELAUNCH_MARKER,
        "NODE_OPTIONS",
      ]) {
        expect(names, k).not.toContain(k);
      }
      const image = imageStart(ROOT);
      const plan = resolveRuntime({
        execArgv: image.entrypoint.slice(1, -1),
        env: { ...image.env, ...literalEnv(c) },
      });
      // The exporter starts with them: its launcher has nothing to add.
      expect(plan.changes).toEqual([]);
      expect(plan.inForce.map(formatSetting)).toEqual([
        ...RUNTIME_SETTINGS.nodeFlags,
        ...Object.entries(RUNTIME_SETTINGS.env).map(([k, v]) => `${k}=${v}`),
      ]);
    },
  );

  it.each([...rendered.keys()])(
    "%s: the config passes --check-config and listens where the pod says",
    async (dir) => {
      const objects = rendered.get(dir) ?? [];
      const w = workload(objects);
      const c = exporterContainer(w);
      const config = volumeAt(w, c, POD_PATHS.config);
      const tmp = tempDir("vdbcloud-k8s-");
      const keyFile = join(tmp, "api-key");
      writeFileSync(keyFile, "test-key\n");
      // Only the Secret's mount path is replaced: everything else is the ConfigMap as rendered.
      const text = (
        find(objects, "ConfigMap", config.volume.configMap.name).data[config.key] as string
      ).replace(POD_PATHS.apiKeyFile, keyFile);
      const configFile = join(tmp, "config.yaml");
      writeFileSync(configFile, text);
      const args = (c.args as string[]).map((a) => (a === POD_PATHS.config ? configFile : a));
      const check = spawnSync(process.execPath, [MAIN, ...args, "--check-config"], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", ...literalEnv(c), HOSTNAME: `${w.metadata.name}-0` },
        timeout: 20_000,
      });
      expect(check.stderr).toBe("");
      expect(check.status).toBe(0);

      const loaded = await loadConfig(configFile);
      const port = c.ports.find((p: K8sObject) => p.name === "http");
      expect(port.containerPort).toBe(loaded.server.port);
      for (const s of objects.filter((o) => o.kind === "Service")) {
        expect(
          selects(s.spec.selector, w.spec.template.metadata.labels),
          `Service ${s.metadata.name} selects the pods`,
        ).toBe(true);
        for (const p of s.spec.ports) expect(p.targetPort).toBe("http");
      }
      const policy = find(objects, "NetworkPolicy");
      expect(selects(policy.spec.podSelector.matchLabels, w.spec.template.metadata.labels)).toBe(true);
      expect(policy.spec.ingress).toEqual([{ ports: [{ port: "http", protocol: "TCP" }] }]);
    },
  );

  it("probe paths answer on the exporter's own HTTP app: liveness always, readiness once ready", async () => {
    const c = exporterContainer(workload(rendered.get("base") ?? []));
    let ready = false;
    const app = createApp({
      metrics: () => Promise.reject(new Error("not used")),
      landing: () => {
        throw new Error("not used");
      },
      ready: () => ready,
      reload: () => Promise.resolve({ ok: true, problems: [] }),
      nativeTargets: () => {
        throw new Error("not used");
      },
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
      expect(c.livenessProbe.httpGet.port).toBe("http");
      expect(c.readinessProbe.httpGet.port).toBe("http");
      expect((await fetch(url(c.livenessProbe.httpGet.path))).status).toBe(200);
      expect((await fetch(url(c.readinessProbe.httpGet.path))).status).toBe(503);
      ready = true;
      expect((await fetch(url(c.readinessProbe.httpGet.path))).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it("sharded: a StatefulSet whose replica count is every pod's total shards, and the ordinal its shard", () => {
    const objects = rendered.get("overlays/sharded") ?? [];
    const sts = find(objects, "StatefulSet");
    expect(objects.some((o) => o.kind === "Deployment")).toBe(false);
    expect(find(objects, "Service", sts.spec.serviceName).spec.clusterIP).toBe("None");
    const c = exporterContainer(sts);
    const env = literalEnv(c);
    expect(env.VDBCLOUD_TOTAL_SHARDS).toBe(String(sts.spec.replicas));
    const shardVar = c.env.find((e: K8sObject) => e.name === "VDBCLOUD_SHARD");
    expect(shardVar.valueFrom.fieldRef.fieldPath).toBe("metadata.labels['apps.kubernetes.io/pod-index']");
    for (let ordinal = 0; ordinal < sts.spec.replicas; ordinal++) {
      const pod = `${sts.metadata.name}-${ordinal}`;
      // With the pod-index label (Kubernetes 1.28+), and without it (the variable is then empty).
      for (const shard of [String(ordinal), ""]) {
        expect(parseCli(c.args, { env: { ...env, VDBCLOUD_SHARD: shard, HOSTNAME: pod } }).shard).toEqual({
          index: ordinal,
          total: sts.spec.replicas,
        });
      }
    }
  });

  it("sharded: changing the replica count in the overlay changes the total shards too", () => {
    const tmp = copyOfManifests();
    const kustomization = join(tmp, "overlays", "sharded", "kustomization.yaml");
    const before = readFileSync(kustomization, "utf8");
    const after = before.replace(/count: \d+/, "count: 7");
    expect(after).not.toBe(before);
    writeFileSync(kustomization, after);
    const sts = find(kustomize(join(tmp, "overlays", "sharded")), "StatefulSet");
    expect(sts.spec.replicas).toBe(7);
    expect(literalEnv(exporterContainer(sts)).VDBCLOUD_TOTAL_SHARDS).toBe("7");
  });

  it("the prometheus-operator component adds to the sharded overlay, scraping each shard once", () => {
    const tmp = copyOfManifests();
    const kustomization = join(tmp, "overlays", "sharded", "kustomization.yaml");
    const text = readFileSync(kustomization, "utf8");
    writeFileSync(kustomization, `${text}components:\n  - ../../components/prometheus-operator\n`);
    const objects = kustomize(join(tmp, "overlays", "sharded"));
    const monitor = find(objects, "ServiceMonitor");
    const scraped = objects.filter(
      (o) => o.kind === "Service" && selects(monitor.spec.selector.matchLabels, o.metadata.labels ?? {}),
    );
    // Two Services select the pods (the headless one names them); only one may be scraped.
    expect(scraped.map((o) => o.metadata.name)).toEqual(["vdbcloud-exporter"]);
    expect(objects.filter((o) => o.kind === "Service")).toHaveLength(2);
  });

  it("prometheus-operator: scrapes the Service as job vdbcloud, with exactly the project's rules and dashboards", () => {
    const objects = rendered.get("overlays/prometheus-operator") ?? [];
    const monitor = find(objects, "ServiceMonitor");
    const service = find(objects, "Service", "vdbcloud-exporter");
    expect(selects(monitor.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
    const servicePorts = service.spec.ports.map((p: K8sObject) => p.name);
    for (const e of monitor.spec.endpoints) {
      expect(servicePorts).toContain(e.port);
      expect(e.path).toBe("/metrics");
      // The alerts select up{job="vdbcloud"}.
      expect(e.relabelings).toContainEqual({
        action: "replace",
        targetLabel: "job",
        replacement: "vdbcloud",
      });
    }

    const rule = find(objects, "PrometheusRule");
    const groups = RULE_FILES.flatMap((f) => parse(readFileSync(join(ROOT, f), "utf8")).groups);
    expect(rule.spec.groups).toEqual(groups);

    const boards = objects.filter(
      (o) => o.kind === "ConfigMap" && o.metadata.labels?.grafana_dashboard === "1",
    );
    const files = dashboardFiles(ROOT);
    expect(boards.flatMap((b) => Object.keys(b.data)).sort()).toEqual(files);
    for (const b of boards) {
      for (const [file, json] of Object.entries(b.data)) {
        expect(json).toBe(readFileSync(join(ROOT, "grafana", "dashboards", file), "utf8"));
      }
      // Client-side apply stores the whole object in an annotation, limited to 256 KiB.
      expect(Buffer.byteLength(JSON.stringify(b))).toBeLessThan(256 * 1024);
    }
  });
});

describe.skipIf(kubectl.skip)("native-export (kubectl kustomize)", () => {
  const objects = kubectl.skip ? [] : kustomize(join(ROOT, KUSTOMIZE_DIR, "overlays", "native-export"));

  it("scrapes the service's own endpoint as the shipped job does, discovering from the exporter's Service", async () => {
    const scrape = find(objects, "ScrapeConfig");
    const shipped = parse(readFileSync(join(ROOT, "config", "prometheus", "native-export.yml"), "utf8"))
      .scrape_configs[0];
    expect(scrape.spec).toMatchObject({
      scrapeInterval: shipped.scrape_interval,
      scrapeTimeout: shipped.scrape_timeout,
      honorLabels: shipped.honor_labels,
      authorization: { type: shipped.authorization.type },
    });
    expect(scrape.spec.relabelings).toContainEqual({
      action: "replace",
      targetLabel: "job",
      replacement: shipped.job_name,
    });
    // The key: the Secret (and its key) the exporter itself reads.
    const w = workload(objects);
    const key = volumeAt(w, exporterContainer(w), POD_PATHS.apiKeyFile);
    expect(scrape.spec.authorization.credentials).toEqual({
      name: key.volume.secret.secretName,
      key: key.key,
    });
    // The discovery: the exporter's Service, on its port, at /sd/native-export.
    const [sd, ...more] = scrape.spec.httpSDConfigs;
    expect(more).toEqual([]);
    const url = new URL(sd.url);
    const service = find(objects, "Service", "vdbcloud-exporter");
    expect(url.hostname).toMatch(new RegExp(`^${service.metadata.name}\\.[a-z0-9-]+\\.svc$`));
    expect(Number(url.port)).toBe(service.spec.ports.find((p: K8sObject) => p.name === "http").port);
    expect(url.pathname).toBe("/sd/native-export");
    // The exporter's config enables what it discovers.
    const config = volumeAt(w, exporterContainer(w), POD_PATHS.config);
    const text = find(objects, "ConfigMap", config.volume.configMap.name).data[config.key];
    const tmp = tempDir("vdbcloud-k8s-native-");
    writeFileSync(join(tmp, "api-key"), "test-key\n");
    writeFileSync(join(tmp, "config.yaml"), text.replace(POD_PATHS.apiKeyFile, join(tmp, "api-key")));
    expect((await loadConfig(join(tmp, "config.yaml"))).nativeExport).toEqual({
      enabled: true,
      clusters: "auto",
      skipMetricQueries: true,
    });
    // One exporter config only: the component replaces the base's.
    expect(
      objects.filter((o) => o.kind === "ConfigMap" && o.metadata.name === config.volume.configMap.name),
    ).toHaveLength(1);
  });
});

/** A scratch copy of deploy/kubernetes, to render with an edit a user would make. */
function copyOfManifests(): string {
  const tmp = tempDir("vdbcloud-kustomize-");
  cpSync(join(ROOT, KUSTOMIZE_DIR), tmp, { recursive: true });
  return tmp;
}

function mebibytes(quantity: string): number {
  const m = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!m) throw new Error(`unexpected memory quantity ${quantity}`);
  return Number(m[1]) * (m[2] === "Gi" ? 1024 : 1);
}
