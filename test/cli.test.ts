import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../src/simulator/index.js";
import { configMapDir } from "./helpers/configMapDir.js";
import { parseSamples, TEST_API_KEY } from "./helpers/harness.js";
import { tempDir } from "./helpers/tempDir.js";

// These tests run the built binary, as users do (`npm test` builds first).
const MAIN = join(import.meta.dirname, "..", "dist", "main.js");
const dir = tempDir("vdbcloud-cli-");

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [MAIN, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", ...env },
    timeout: 20_000,
  });
}

/** `run` without blocking the loop: a simulator of this process must answer meanwhile. */
function runAsync(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function clusterYaml(sim: Simulator): string {
  return sim.clusters
    .map((c) => `  - { id: ${c.id}, region: ${c.regionId}, project_id: ${c.projectId} }`)
    .join("\n");
}

function goodConfig(sim: Simulator, extra = ""): string {
  return `api:
  base_url: ${sim.baseUrl}
  controller_url: ${sim.controllerUrlTemplate}
  api_key: \${VDBCLOUD_API_KEY}
clusters:
${clusterYaml(sim)}
metrics: { granularity: PT30S }
spark_jobs: { jobs: [] }
${extra}`;
}

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ clusters: 3 });
});
afterAll(async () => {
  await sim.close();
});

describe("command line", () => {
  it("--help and --version exit 0", () => {
    expect(run(["--help"]).status).toBe(0);
    expect(run(["--help"]).stdout).toContain("--check-config");
    expect(run(["--version"]).stdout).toMatch(/^vdbcloud-exporter \d+\.\d+\.\d+/);
  });

  it("takes every setting from its VDBCLOUD_* variable, documented in --help; a flag wins", () => {
    const help = run(["--help"]).stdout;
    for (const v of ["CONFIG", "LISTEN", "LOG_LEVEL", "SHARD", "TOTAL_SHARDS", "API_KEY"])
      expect(help).toContain(`VDBCLOUD_${v}`);
    const path = write("env.yaml", goodConfig(sim));
    const env = { VDBCLOUD_API_KEY: TEST_API_KEY, VDBCLOUD_CONFIG: path };
    const fromEnv = run(["--check-config"], { ...env, VDBCLOUD_TOTAL_SHARDS: "2", HOSTNAME: "exporter-1" });
    expect(fromEnv.stderr).toBe("");
    expect(fromEnv.stdout).toContain("shard 1 of 2");
    const flagWins = run(["--check-config", "--shard", "0"], {
      ...env,
      VDBCLOUD_SHARD: "1",
      VDBCLOUD_TOTAL_SHARDS: "2",
    });
    expect(flagWins.stdout).toContain("shard 0 of 2");
    const bad = run(["--check-config"], { ...env, VDBCLOUD_LOG_LEVEL: "loud" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("VDBCLOUD_LOG_LEVEL: must be one of");
  });

  it("bad arguments exit 2 with the usage and no stack trace", () => {
    const r = run(["--bogus"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Usage:");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("--check-config prints the polling schedule and exits 0, without the key", () => {
    const path = write("good.yaml", goodConfig(sim));
    const r = run(["--config", path, "--check-config"], { VDBCLOUD_API_KEY: TEST_API_KEY });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("POST /v2/clusters/{id}/metrics/query");
    expect(r.stdout).toContain("fits");
    for (const c of sim.clusters) expect(r.stdout).toContain(c.id);
    expect(r.stdout + r.stderr).not.toContain(TEST_API_KEY);
  });

  it("--check-config names the collectors a deny list silences and the shipped rules it leaves blind", () => {
    const path = write("denied.yaml", goodConfig(sim, 'families: { deny: ["vdbcloud_import_job.*"] }\n'));
    const r = run(["--config", path, "--check-config"], { VDBCLOUD_API_KEY: TEST_API_KEY });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Families (families.allow, families.deny): 4 of ");
    expect(r.stdout).toMatch(
      /Collectors that make no call, every family they write being denied:\n {4}import_jobs: at least \d+ calls per cycle spared\n/,
    );
    expect(r.stdout).not.toContain("POST /v2/vectordb/jobs/import/list");
    // The built exporter finds the rules shipped beside it (config/prometheus/rules).
    expect(r.stdout).toContain(
      "  - alert VdbcloudImportJobFailed (alerts.yml) reads vdbcloud_import_job_state, which families.deny[0] denies\n",
    );
  });

  it("--check-config says when the rate budget does not fit and what interval would", () => {
    const many = Array.from(
      { length: 700 },
      (_, i) => `  - { id: in01-${String(i).padStart(16, "0")} }`,
    ).join("\n");
    const path = write(
      "big.yaml",
      `api: { api_key: k }\nclusters:\n${many}\nmetrics: { granularity: PT30S }\nimport_jobs: { enabled: false }\ninventory: { enabled: false }\n`,
    );
    const r = run(["--config", path, "--check-config"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("EXCEEDS");
    expect(r.stdout).toMatch(/PT1M|PT35S/);
  });

  // Each broken config: exit 2, the field's path in the message, no stack trace, no key.
  it.each([
    { name: "yaml syntax", yaml: "api: [unclosed\n", want: "bad.yaml:" },
    { name: "unknown top-level key", yaml: "api: { api_key: k }\nbogus: 1\n", want: "bogus" },
    {
      name: "typo in nested key",
      yaml: "api: { api_key: k }\nmetrics: { granulartiy: PT1M }\n",
      want: "metrics.granulartiy",
    },
    {
      name: "granularity below PT30S",
      yaml: "api: { api_key: k }\nmetrics: { granularity: PT10S }\n",
      want: "metrics.granularity",
    },
    {
      name: "interval below granularity",
      yaml: "api: { api_key: k }\nmetrics: { granularity: PT1M, interval: PT30S }\n",
      want: "metrics.interval",
    },
    {
      name: "lookback below granularity",
      yaml: "api: { api_key: k }\nmetrics: { granularity: PT1M, lookback: PT30S }\n",
      want: "metrics.lookback",
    },
    {
      name: "P99 on a non-latency metric",
      yaml: "api: { api_key: k }\nmetrics: { queries: [{ name: CU_COMPUTATION, stat: P99 }] }\n",
      want: "metrics.queries[0].stat",
    },
    {
      name: "stat on a _P99 name",
      yaml: "api: { api_key: k }\nmetrics: { queries: [{ name: REQ_SEARCH_LATENCY_P99, stat: AVG }] }\n",
      want: "metrics.queries[0]",
    },
    {
      name: "lower-case metric name",
      yaml: "api: { api_key: k }\nmetrics: { queries: [{ name: cu_computation }] }\n",
      want: "metrics.queries[0].name",
    },
    {
      name: "duplicate query",
      yaml: "api: { api_key: k }\nmetrics: { queries: [{ name: CU_CAPACITY }, { name: CU_CAPACITY }] }\n",
      want: "metrics.queries[1]",
    },
    {
      name: "a misspelt metric name, with the nearest known one",
      yaml: "api: { api_key: k }\nmetrics: { queries: [{ name: CU_COMPUTATON, stat: AVG }] }\n",
      want: "metrics.queries[0].name: unknown metric CU_COMPUTATON (did you mean CU_COMPUTATION?",
    },
    {
      name: "a misspelt metric name in a scope",
      yaml: "api: { api_key: k }\nclusters: [{ id: in01-a, scopes: [{ db_name: d, queries: [{ name: ENTITIES_CONT }] }] }]\n",
      want: "clusters[0].scopes[0].queries[0].name: unknown metric ENTITIES_CONT (did you mean ENTITIES_COUNT?",
    },
    {
      name: "a deny rule that would hide a health family",
      yaml: 'api: { api_key: k }\nfamilies: { deny: [vdbcloud_import_jobs, "vdbcloud_collector_.*"] }\n',
      want: 'families.deny[1]: "vdbcloud_collector_.*" would deny vdbcloud_collector_up',
    },
    { name: "missing api key", yaml: "clusters: [{ id: in01-a }]\n", want: "api.api_key" },
    {
      name: "unreadable key file",
      yaml: "api: { api_key_file: /nonexistent/key }\n",
      want: "api.api_key_file",
    },
    { name: "both key and key file", yaml: "api: { api_key: k, api_key_file: /x }\n", want: "api" },
    {
      name: "duplicate cluster",
      yaml: "api: { api_key: k }\nclusters: [{ id: in01-a }, { id: in01-a }]\n",
      want: "clusters[1].id",
    },
    {
      name: "empty cluster id",
      yaml: "api: { api_key: k }\nclusters: [{ id: '' }]\n",
      want: "clusters[0].id",
    },
    {
      name: "bad region",
      yaml: "api: { api_key: k }\nclusters: [{ id: in01-a, region: 'US West' }]\n",
      want: "clusters[0].region",
    },
    {
      name: "empty scope",
      yaml: "api: { api_key: k }\nclusters: [{ id: in01-a, scopes: [{}] }]\n",
      want: "clusters[0].scopes[0]",
    },
    { name: "bad base url", yaml: "api: { api_key: k, base_url: 'not a url' }\n", want: "api.base_url" },
    {
      name: "controller url without {region}",
      yaml: "api: { api_key: k, controller_url: 'https://x.example.com' }\n",
      want: "api.controller_url",
    },
    { name: "rate limit zero", yaml: "api: { api_key: k, rate_limit: 0 }\n", want: "api.rate_limit" },
    {
      name: "unreadable web config file (a run would exit 2 too)",
      yaml: "api: { api_key: k }\nserver: { web_config_file: missing-web.yaml }\n",
      want: "missing-web.yaml: cannot read",
    },
    {
      name: "an interval beyond a day",
      yaml: "api: { api_key: k }\ninventory: { interval: P30D }\n",
      want: "inventory.interval",
    },
    { name: "wrong type", yaml: "api: { api_key: k, max_retries: many }\n", want: "api.max_retries" },
    {
      name: "page size too small",
      yaml: "api: { api_key: k }\nimport_jobs: { page_size: 3 }\n",
      want: "import_jobs.page_size",
    },
    {
      name: "page size too large",
      yaml: "api: { api_key: k }\nimport_jobs: { page_size: 101 }\n",
      want: "import_jobs.page_size",
    },
    {
      name: "months in a duration",
      yaml: "api: { api_key: k }\nimport_jobs: { retention: P1M }\n",
      want: "import_jobs.retention",
    },
    {
      name: "bad duration text",
      yaml: "api: { api_key: k }\nmetrics: { granularity: '1 minute' }\n",
      want: "metrics.granularity",
    },
    // The ${...} is YAML text for the exporter's own interpolation, not a JS template.
    {
      name: "unset env variable",
      yaml: `api: { base_url: '$${"{"}NOPE_NOT_SET}', api_key: k }\n`,
      want: "api.base_url: environment variable NOPE_NOT_SET is not set",
    },
    {
      name: "bad listen address",
      yaml: "api: { api_key: k }\nserver: { listen: 'localhost' }\n",
      want: "server.listen",
    },
    {
      name: "staleness too small",
      yaml: "api: { api_key: k }\nstaleness_intervals: 1\n",
      want: "staleness_intervals",
    },
    {
      name: "duplicate spark job",
      yaml: "api: { api_key: k }\nspark_jobs: { jobs: [{ project_id: p, job_id: j }, { project_id: p, job_id: j }] }\n",
      want: "spark_jobs.jobs[1]",
    },
  ])("rejects: $name", ({ yaml, want }) => {
    const path = write("bad.yaml", yaml);
    const r = run(["--config", path, "--check-config"]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(want);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  });

  it("a misspelt metric name stops a run too: exit 2 with the suggestion, before any call", () => {
    const path = write(
      "typo.yaml",
      "api: { api_key: k }\nmetrics: { queries: [{ name: CU_COMPUTATON, stat: AVG }] }\n",
    );
    const r = run(["--config", path]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain("did you mean CU_COMPUTATION?");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("a taken port exits 1 with a clear message before any upstream call", async () => {
    const own = await startSimulator({ clusters: 1 });
    const blocker = createNetServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const cfg = write("taken.yaml", goodConfig(own));
      const r = await runAsync(["--config", cfg, "--listen", `127.0.0.1:${port}`], {
        VDBCLOUD_API_KEY: TEST_API_KEY,
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the address is already in use`);
      expect(own.stats.requests).toBe(0);
    } finally {
      await new Promise((r) => blocker.close(r));
      await own.close();
    }
  });

  it("refuses with exit 2 a config path that is a directory or a binary, in one short line", () => {
    for (const path of [dir, process.execPath]) {
      const r = run(["--config", path, "--check-config"]);
      expect(r.status, path).toBe(2);
      expect(r.stderr.length, path).toBeLessThan(400);
      expect(r.stderr, path).toContain(path);
    }
    // The node binary is refused for its size before a byte is read; a small binary for its bytes.
    expect(run(["--config", process.execPath, "--check-config"]).stderr).toMatch(
      /over the 10 MB|not a text file/,
    );
    const small = join(dir, "small.bin");
    writeFileSync(small, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0xff]));
    const binary = run(["--config", small, "--check-config"]);
    expect(binary.status).toBe(2);
    expect(binary.stderr).toContain(`${small}: is not a text file`);
  });

  it("refuses a key that cannot work, and never prints a key or a reference in config errors", () => {
    const newline = write("newline.yaml", 'api:\n  api_key: "abc\\ndef-secret-123"\n');
    const r1 = run(["--config", newline, "--check-config"]);
    expect(r1.status).toBe(2);
    expect(r1.stderr).toContain("api.api_key: holds a control character at character 4");
    expect(r1.stderr + r1.stdout).not.toContain("def-secret-123");

    const fromEnv = run(["--config", write("envkey.yaml", "{}\n"), "--check-config"], {
      VDBCLOUD_API_KEY: "abc def-secret-123",
    });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toContain("VDBCLOUD_API_KEY: holds whitespace at character 4");
    expect(fromEnv.stderr + fromEnv.stdout).not.toContain("secret-123");

    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config syntax under test.
    const reference = 'api:\n  api_key: "${abc-secret-123}"\n';
    for (const yaml of [reference, "api:\n  api_key: *abc-secret-123\n"]) {
      const r = run(["--config", write("leak.yaml", yaml), "--check-config"]);
      expect(r.status, yaml).toBe(2);
      expect(r.stderr, yaml).toMatch(/api\.api_key: |leak\.yaml: an alias/);
      expect(r.stderr + r.stdout, yaml).not.toContain("abc-secret-123");
    }
  });

  it("a missing config file exits 2 naming the file", () => {
    const r = run(["--config", join(dir, "nope.yaml"), "--check-config"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("nope.yaml");
  });
});

describe("running process", () => {
  let child: ChildProcess | undefined;
  let output = "";

  afterEach(() => {
    child?.kill("SIGKILL");
    child = undefined;
  });

  function start(configPath: string, extraArgs: string[] = []): Promise<string> {
    return startWith(["--config", configPath, "--log-level", "debug", ...extraArgs]);
  }

  /** Runs the binary with `args` and a random loopback port; resolves its URL once ready. */
  async function startWith(args: string[], env: Record<string, string> = {}): Promise<string> {
    output = "";
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    child = spawn(process.execPath, [MAIN, ...args, "--listen", `127.0.0.1:${port}`], {
      env: { PATH: process.env.PATH ?? "", VDBCLOUD_API_KEY: TEST_API_KEY, ...env },
    });
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    const url = `http://127.0.0.1:${port}`;
    // Ready after the first cycle: a few seconds alone, longer on a machine busy with other files.
    for (let i = 0; i < 250; i++) {
      try {
        if ((await fetch(`${url}/readyz`)).status === 200) return url;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`exporter not ready:\n${output}`);
  }

  it("reloads on SIGHUP and POST /-/reload, rejects an invalid config and keeps running", async () => {
    const path = write("reload.yaml", goodConfig(sim));
    const url = await start(path, ["--web.enable-lifecycle"]);
    const m1 = parseSamples(await (await fetch(`${url}/metrics`)).text());
    expect(m1.find((s) => s.name === "vdbcloud_config_last_reload_successful")?.value).toBe(1);

    // Invalid: rejected with its problems, previous config keeps running.
    writeFileSync(path, "api: { api_key: k }\nmetrics: { granularity: PT10S }\n");
    const bad = await fetch(`${url}/-/reload`, { method: "POST" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("metrics.granularity");
    const m2 = parseSamples(await (await fetch(`${url}/metrics`)).text());
    expect(m2.find((s) => s.name === "vdbcloud_config_last_reload_successful")?.value).toBe(0);
    expect(m2.some((s) => s.name === "vdbcloud_storage_bytes")).toBe(true);

    // Empty (an editor caught rewriting the file in place): rejected, not "every default".
    writeFileSync(path, "");
    const empty = await fetch(`${url}/-/reload`, { method: "POST" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("is empty; the running config is kept");
    expect(
      parseSamples(await (await fetch(`${url}/metrics`)).text()).some(
        (s) => s.name === "vdbcloud_storage_bytes",
      ),
    ).toBe(true);

    // Valid again, with one cluster fewer, through SIGHUP.
    const fewer = { ...sim, clusters: sim.clusters.slice(0, 2) } as Simulator;
    writeFileSync(path, goodConfig(fewer));
    child?.kill("SIGHUP");
    let m3 = parseSamples("");
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      m3 = parseSamples(await (await fetch(`${url}/metrics`)).text());
      if (m3.find((s) => s.name === "vdbcloud_config_last_reload_successful")?.value === 1) break;
    }
    expect(m3.find((s) => s.name === "vdbcloud_config_last_reload_successful")?.value).toBe(1);
    const removed = sim.clusters[2]?.id as string;
    // The removed cluster's series go at the next publish.
    for (let i = 0; i < 30 && m3.some((s) => s.labels.cluster_id === removed); i++) {
      await new Promise((r) => setTimeout(r, 100));
      m3 = parseSamples(await (await fetch(`${url}/metrics`)).text());
    }
    expect(m3.some((s) => s.labels.cluster_id === removed)).toBe(false);
    expect(output).toContain("configuration rejected");
    expect(output).toContain("configuration reloaded");
  });

  it("reloads a mounted ConfigMap when Kubernetes swaps it, and keeps running on an invalid one", async () => {
    const cm = configMapDir(goodConfig(sim));
    const url = await start(cm.file);
    const reloads = async () => {
      const samples = parseSamples(await (await fetch(`${url}/metrics`)).text());
      return {
        ok: samples.find((s) => s.name === "vdbcloud_config_last_reload_successful")?.value,
        at: samples.find((s) => s.name === "vdbcloud_config_last_reload_success_timestamp_seconds")?.value,
        // The cluster_metrics targets being polled: exactly the configured clusters.
        clusters: new Set(
          samples
            .filter((s) => s.name === "vdbcloud_collector_up" && s.labels.collector === "cluster_metrics")
            .map((s) => s.labels.target),
        ),
      };
    };
    /** Polls until `done` holds; the exporter promises a reload within 10 s of the change. */
    const within10s = async (done: (r: Awaited<ReturnType<typeof reloads>>) => boolean) => {
      let r = await reloads();
      for (const started = Date.now(); !done(r) && Date.now() - started < 10_000; r = await reloads())
        await new Promise((res) => setTimeout(res, 200));
      return r;
    };
    const before = await reloads();
    expect(before.clusters.size).toBe(sim.clusters.length);

    const fewer = { ...sim, clusters: sim.clusters.slice(0, 2) } as Simulator;
    cm.swap(goodConfig(fewer));
    const after = await within10s((r) => r.at !== before.at && r.clusters.size === 2);
    expect(after.ok).toBe(1);
    expect(after.clusters).toEqual(new Set(fewer.clusters.map((c) => c.id)));

    cm.swap("api: { api_key: k }\nmetrics: { granularity: PT10S }\n");
    const rejected = await within10s((r) => r.ok === 0);
    expect(rejected.ok).toBe(0);
    // The running config goes on: same clusters, same key (the invalid file names another).
    await new Promise((res) => setTimeout(res, 1000));
    expect((await reloads()).clusters).toEqual(after.clusters);
    expect(output).toContain("configuration file changed; reloading");
    expect(output).toContain("configuration rejected");
  });

  it("stops cleanly on SIGTERM within a few seconds, even with upstream requests hanging", async () => {
    const path = write("term.yaml", goodConfig(sim));
    await start(path);
    sim.faults.set("hang", { rate: 1 });
    try {
      const proc = child as ChildProcess;
      const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
      const started = Date.now();
      proc.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      sim.faults.clear();
    }
  });

  it("--demo writes its data-plane tokens to a temporary directory and removes it when stopped", async () => {
    // The demo's own temp dir goes under this one (TMPDIR), so the test sees only the demo's.
    const tmp = tempDir("vdbcloud-cli-demo-");
    await startWith(["--demo"], { TMPDIR: tmp });
    const made = readdirSync(tmp);
    expect(made).toEqual([expect.stringMatching(/^vdbcloud-demo-/)]);
    const tokens = readdirSync(join(tmp, made[0] as string)).filter((f) => f.endsWith(".token"));
    expect(tokens.length).toBeGreaterThan(0);
    const proc = child as ChildProcess;
    const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("never writes the API key to its logs, even at debug level and under auth failures", async () => {
    const path = write("logs.yaml", goodConfig(sim));
    const url = await start(path);
    sim.faults.set("invalid_key", { rate: 1 });
    try {
      await new Promise((r) => setTimeout(r, 500));
      await fetch(`${url}/metrics`);
      await fetch(`${url}/`);
    } finally {
      sim.faults.clear();
    }
    expect(output.length).toBeGreaterThan(0);
    expect(output).not.toContain(TEST_API_KEY);
  });
});

describe("web config: TLS and basic auth (exporter-toolkit format)", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
    child = undefined;
  });

  it("serves /metrics over TLS only with the right credentials; /healthz stays open", async () => {
    const { hashSync } = await import("bcryptjs");
    const { Agent, request } = await import("undici");
    const { readFileSync } = await import("node:fs");
    const testdata = join(import.meta.dirname, "..", "src", "config", "testdata");
    const web = write(
      "web.yaml",
      `tls_server_config:\n  cert_file: ${join(testdata, "cert.pem")}\n  key_file: ${join(testdata, "key.pem")}\nbasic_auth_users:\n  prometheus: '${hashSync("scrape-secret", 4)}'\n`,
    );
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const cfg = write(
      "tls.yaml",
      goodConfig(sim, `server: { listen: 127.0.0.1:${port}, web_config_file: ${web} }\n`),
    );
    child = spawn(process.execPath, [MAIN, "--config", cfg], {
      env: { PATH: process.env.PATH ?? "", VDBCLOUD_API_KEY: TEST_API_KEY },
    });
    const dispatcher = new Agent({ connect: { ca: readFileSync(join(testdata, "cert.pem")) } });
    const get = async (path: string, auth?: string) => {
      const r = await request(`https://localhost:${port}${path}`, {
        dispatcher,
        ...(auth ? { headers: { authorization: `Basic ${Buffer.from(auth).toString("base64")}` } } : {}),
      });
      return { status: r.statusCode, body: await r.body.text() };
    };
    // Ready (first cycle done, so there is data to see); /readyz is open like /healthz.
    let ready = { status: 0, body: "" };
    for (let i = 0; i < 150 && ready.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await get("/readyz").catch(() => ready);
    }
    expect(ready.status).toBe(200);
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/metrics")).status).toBe(401);
    expect((await get("/metrics", "prometheus:wrong")).status).toBe(401);
    expect((await get("/", "prometheus:wrong")).status).toBe(401);
    const ok = await get("/metrics", "prometheus:scrape-secret");
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("vdbcloud_collector_up");
    // Plain HTTP on the TLS port does not get metrics.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    await dispatcher.close();
  });
});

describe("slo-rules", () => {
  it("is in --help, and has a help of its own", () => {
    expect(run(["--help"]).stdout).toContain("vdbcloud-exporter slo-rules --config FILE");
    const help = run(["slo-rules", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--runbook-base-url URL");
  });

  it("prints the rules of a config's slo section with no key, with the runbook base given", () => {
    const path = write("slo.yaml", "slo:\n  service: { availability: 0.99 }\n  windows: { ticket: [] }\n");
    const r = run(["slo-rules", "--config", path, "--runbook-base-url", "https://wiki.example.org/runbooks"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("record: slo:service_availability:error_ratio_rate1h");
    expect(r.stdout).toContain("slo:service_availability:error_ratio_rate1h > 0.144");
    expect(r.stdout).toContain(
      "runbook_url: https://wiki.example.org/runbooks#vdbcloudserviceavailabilitybudgetburn",
    );
    expect(r.stdout).not.toContain("severity: warning");
  });

  it("exits 2 naming every wrong field, and on missing or unknown flags", () => {
    const path = write(
      "slo-bad.yaml",
      "slo:\n  canary: { latency: { threshold: PT0.3S } }\n  windows: { page: [{ burn_rate: 14.4, long: PT5M, short: PT1H }] }\n",
    );
    const bad = run(["slo-rules", "--config", path]);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain(
      "slo.canary.latency.threshold: must be one of the canary latency histogram's bucket bounds (PT0.005S,",
    );
    expect(bad.stderr).toContain("slo.windows.page[0].short: must be shorter than long (PT5M)");
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    for (const args of [["slo-rules"], ["slo-rules", "--config", path, "--bogus"]]) {
      const r = run(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain("Usage:\n  vdbcloud-exporter slo-rules");
    }
  });
});
