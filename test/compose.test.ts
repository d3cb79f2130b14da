/**
 * docker-compose.yml cannot run here (no Docker engine), so this checks what would break it:
 * every local path it mounts or builds from exists, and the exporter's port, the Prometheus
 * scrape target, the Grafana datasource URL and the provisioned dashboard path agree.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEMO_API_KEY } from "../src/app/demo.js";
import { formatSetting, resolveRuntime } from "../src/runtime/resolve.js";
import { RELAUNCH_MARKER, RUNTIME_CONTROLS, RUNTIME_SETTINGS } from "../src/runtime/settings.js";
import { imageStart } from "./helpers/image.js";

const ROOT = join(import.meta.dirname, "..");

interface Service {
  readonly image?: string;
  readonly build?: { readonly context: string; readonly dockerfile?: string } | string;
  readonly command?: readonly string[];
  readonly entrypoint?: unknown;
  readonly ports?: readonly string[];
  readonly volumes?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly depends_on?: readonly string[];
}

const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8")) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};

function service(name: string): Service {
  const s = compose.services[name];
  if (s === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
}

interface Mount {
  readonly source: string;
  readonly target: string;
  readonly bind: boolean;
}

function mountsOf(s: Service): Mount[] {
  return (s.volumes ?? []).map((v) => {
    const [source = "", target = ""] = v.split(":");
    return { source, target, bind: source.startsWith("./") || source.startsWith("../") };
  });
}

/** The host path behind a path inside a container, through its bind mounts (deepest mount wins). */
function hostPathOf(s: Service, containerPath: string): string | undefined {
  const mount = mountsOf(s)
    .filter((m) => m.bind && (containerPath === m.target || containerPath.startsWith(`${m.target}/`)))
    .sort((a, b) => b.target.length - a.target.length)[0];
  if (mount === undefined) return undefined;
  return join(ROOT, mount.source, posix.relative(mount.target, containerPath));
}

/** "HOST:CONTAINER" port mappings as [host, container] numbers. */
function portsOf(s: Service): Array<[number, number]> {
  return (s.ports ?? []).map((p) => {
    const [host, container] = p.split(":").map(Number);
    return [host ?? Number.NaN, container ?? Number.NaN];
  });
}

function flagValue(args: readonly string[], flag: string): string | undefined {
  const joined = args.find((a) => a.startsWith(`${flag}=`));
  if (joined !== undefined) return joined.slice(flag.length + 1);
  const index = args.indexOf(flag);
  return index >= 0 ? args[index + 1] : undefined;
}

describe("docker-compose.yml", () => {
  it("defines the exporter, prometheus and grafana services", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["exporter", "grafana", "prometheus"]);
  });

  it("builds the exporter from the repository's Dockerfile and runs the demo on port 9474", () => {
    const exporter = service("exporter");
    const build = typeof exporter.build === "string" ? { context: exporter.build } : exporter.build;
    expect(build).toBeDefined();
    const dockerfile = join(ROOT, build?.context ?? "", build?.dockerfile ?? "Dockerfile");
    expect(existsSync(dockerfile), dockerfile).toBe(true);
    // The command is appended to the image's entrypoint: it must be the exporter's CLI.
    expect(readFileSync(dockerfile, "utf8")).toMatch(
      /^ENTRYPOINT \["node", (?:"--[^"]+", )*"dist\/main\.js"\]/m,
    );
    const command = exporter.command ?? [];
    expect(command).toContain("--demo");
    // The image's entrypoint stays, with its runtime settings, and nothing changes them.
    expect(exporter.entrypoint).toBeUndefined();
    for (const k of [
      ...Object.keys(RUNTIME_SETTINGS.env),
      ...Object.values(RUNTIME_CONTROLS),
      RELAUNCH_MARKER,
      "NODE_OPTIONS",
    ]) {
      expect(Object.keys(exporter.environment ?? {}), k).not.toContain(k);
    }
    const image = imageStart(ROOT);
    const plan = resolveRuntime({ execArgv: image.entrypoint.slice(1, -1), env: { ...image.env } });
    expect(plan.changes).toEqual([]);
    expect(plan.inForce.map(formatSetting)).toEqual([
      ...RUNTIME_SETTINGS.nodeFlags,
      ...Object.entries(RUNTIME_SETTINGS.env).map(([k, v]) => `${k}=${v}`),
    ]);
    expect(flagValue(command, "--listen")).toBe("0.0.0.0:9474");
    expect(portsOf(exporter)).toContainEqual([9474, 9474]);
  });

  it.each(
    Object.entries(compose.services).flatMap(([name, s]) =>
      mountsOf(s)
        .filter((m) => m.bind)
        .map((m) => [name, m.source] as const),
    ),
  )("%s mounts %s, which exists", (_name, source) => {
    expect(existsSync(join(ROOT, source))).toBe(true);
  });

  it("names every named volume it uses", () => {
    const named = Object.values(compose.services)
      .flatMap(mountsOf)
      .filter((m) => !m.bind)
      .map((m) => m.source);
    expect(named.length).toBeGreaterThan(0);
    for (const v of named) expect(Object.keys(compose.volumes ?? {})).toContain(v);
  });
});

describe("prometheus service and config/prometheus/prometheus.yml agree", () => {
  const prometheus = service("prometheus");
  const configFile = flagValue(prometheus.command ?? [], "--config.file") ?? "";
  const hostConfig = hostPathOf(prometheus, configFile) ?? "";
  const config = parse(readFileSync(hostConfig, "utf8")) as {
    rule_files: string[];
    scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
  };

  it("mounts the repository's config as the config file", () => {
    expect(hostConfig).toBe(join(ROOT, "config", "prometheus", "prometheus.yml"));
  });

  it("loads rule files that exist, relative to the config file as Prometheus resolves them", () => {
    expect(config.rule_files.sort()).toEqual([
      "rules/alerts.yml",
      "rules/native.yml",
      "rules/recording.yml",
      "rules/slo.yml",
    ]);
    for (const f of config.rule_files) {
      const inContainer = posix.join(posix.dirname(configFile), f);
      const host = hostPathOf(prometheus, inContainer) ?? "";
      expect(existsSync(host) && statSync(host).isFile(), inContainer).toBe(true);
    }
  });

  it("scrapes the exporter service on the port it listens on, as job vdbcloud", () => {
    const job = config.scrape_configs.find((c) => c.job_name === "vdbcloud");
    const targets = job?.static_configs.flatMap((s) => s.targets) ?? [];
    const listen = flagValue(service("exporter").command ?? [], "--listen") ?? "";
    expect(targets).toEqual([`exporter:${listen.split(":")[1]}`]);
  });
});

describe("the demo's native-export job and the exporter agree", () => {
  const prometheus = service("prometheus");
  const configFile = flagValue(prometheus.command ?? [], "--config.file") ?? "";
  const config = parse(readFileSync(hostPathOf(prometheus, configFile) ?? "", "utf8")) as {
    scrape_configs: Array<Record<string, unknown> & { job_name: string }>;
  };
  const shipped = (
    parse(readFileSync(join(ROOT, "config", "prometheus", "native-export.yml"), "utf8")) as {
      scrape_configs: Array<Record<string, unknown>>;
    }
  ).scrape_configs[0];
  const job = config.scrape_configs.find((c) => c.job_name === shipped?.job_name) as
    | { authorization: { credentials_file: string }; http_sd_configs: { url: string }[] }
    | undefined;
  const command = service("exporter").command ?? [];

  it("is the shipped job with only its discovery URL and key file set", () => {
    const without = (j: unknown) => {
      const { authorization, http_sd_configs, ...rest } = j as {
        authorization: Record<string, unknown>;
        http_sd_configs: Record<string, unknown>[];
      };
      const { credentials_file: _file, ...auth } = authorization;
      return {
        ...rest,
        authorization: auth,
        http_sd_configs: http_sd_configs.map(({ url: _url, ...sd }) => sd),
      };
    };
    expect(job).toBeDefined();
    expect(without(job)).toEqual(without(shipped));
  });

  it("discovers from the exporter service's /sd/native-export, with the demo's key", () => {
    const url = new URL(job?.http_sd_configs[0]?.url ?? "");
    const listen = flagValue(command, "--listen") ?? "";
    expect(`${url.hostname}:${url.port}`).toBe(`exporter:${listen.split(":")[1]}`);
    expect(url.pathname).toBe("/sd/native-export");
    const keyFile = posix.join(posix.dirname(configFile), job?.authorization.credentials_file ?? "");
    expect(readFileSync(hostPathOf(prometheus, keyFile) ?? "", "utf8").trim()).toBe(DEMO_API_KEY);
  });

  it("runs the demo's simulator where Prometheus reaches it: the exporter service's own name", () => {
    expect(flagValue(command, "--demo-simulator-listen")?.split(":")[0]).toBe("exporter");
  });
});

describe("grafana service and provisioning agree", () => {
  const grafana = service("grafana");
  const provisioning = hostPathOf(grafana, "/etc/grafana/provisioning") ?? "";

  it("provisions a datasource pointing at the prometheus service", () => {
    const file = join(provisioning, "datasources", "prometheus.yml");
    const ds = (parse(readFileSync(file, "utf8")) as { datasources: Array<{ type: string; url: string }> })
      .datasources;
    expect(ds).toHaveLength(1);
    expect(ds[0]?.type).toBe("prometheus");
    const url = new URL(ds[0]?.url ?? "");
    expect(Object.keys(compose.services)).toContain(url.hostname);
    // Prometheus listens on 9090 unless --web.listen-address says otherwise.
    const listen = flagValue(service(url.hostname).command ?? [], "--web.listen-address") ?? "0.0.0.0:9090";
    expect(url.port).toBe(listen.split(":")[1]);
  });

  it("provisions dashboards from the path where grafana/dashboards is mounted", () => {
    const file = join(provisioning, "dashboards", "vdbcloud.yml");
    const providers = (
      parse(readFileSync(file, "utf8")) as { providers: Array<{ options: { path: string } }> }
    ).providers;
    const path = providers[0]?.options.path ?? "";
    expect(hostPathOf(grafana, path)).toBe(join(ROOT, "grafana", "dashboards"));
    const home = grafana.environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH ?? "";
    expect(existsSync(hostPathOf(grafana, home) ?? ""), home).toBe(true);
  });
});
