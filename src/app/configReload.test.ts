import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/tempDir.js";
import { loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { configReloader } from "./configReload.js";

const GOOD = "api: { api_key: sk-secret-key }\nclusters: [{ id: in01-a }]\n";
let dir = "";
afterEach(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
  dir = "";
});

async function setup() {
  dir = tempDir("vdbcloud-reload-");
  const path = join(dir, "config.yaml");
  writeFileSync(path, GOOD);
  const lines: Array<Record<string, unknown> & { level: number; msg: string }> = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  const applied: Config[] = [];
  let rejected = 0;
  const exporter = {
    applyConfig: async (c: Config) => void applied.push(c),
    rejectedConfig: () => void rejected++,
  };
  const reload = configReloader(path, exporter, logger, await loadConfig(path));
  const write = (text: string) => writeFileSync(path, text);
  const logged = (msg: string, level?: number) =>
    lines.filter((l) => l.msg === msg && (level === undefined || l.level === level));
  return { reload, write, lines, logged, applied, rejected: () => rejected };
}

const REJECTED = "configuration rejected; the previous one keeps running";

describe("configReloader", () => {
  it.each([
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config syntax under test.
    ["a key inside ${}", 'api: { api_key: "${abc-secret-123}" }\n'],
    ["a key as an alias", "api: { api_key: *abc-secret-123 }\n"],
    ["a key with a newline", 'api: { api_key: "abc\\nsecret-123" }\n'],
  ])("never puts a key in the rejection's log line or answer: %s", async (_name, text) => {
    const t = await setup();
    t.write(text);
    const result = await t.reload();
    expect(result.ok).toBe(false);
    expect(result.problems.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.problems)).not.toContain("secret-123");
    expect(t.logged(REJECTED, 50)).toHaveLength(1);
    expect(JSON.stringify(t.lines)).not.toContain("secret-123");
  });

  it("logs a bad edit once, whether the file watch or an HTTP reload noticed it, and answers both", async () => {
    const t = await setup();
    t.write("api: { api_key: sk-secret-key }\nclusters: [{ id: in01-a, regoin: x }]\n");
    const byWatch = await t.reload();
    const byHttp = await t.reload();
    expect(byWatch.ok).toBe(false);
    expect(byHttp).toEqual(byWatch);
    expect(byHttp.problems.join("\n")).toContain("regoin");
    expect(t.logged(REJECTED, 50)).toHaveLength(1);
    expect(t.logged(REJECTED, 20)).toHaveLength(1);
    expect(t.rejected()).toBe(2);

    // Another bad edit is news.
    t.write("api: { api_key: sk-secret-key }\nclusters: [{ id: in01-a }]\nmetrics: { granularity: PT1S }\n");
    await t.reload();
    expect(t.logged(REJECTED, 50)).toHaveLength(2);
  });

  it("logs what a reload changed, and that a second reload of the same file changed nothing", async () => {
    const t = await setup();
    t.write(
      "api: { api_key: sk-secret-key }\nclusters: [{ id: in01-b }]\nmetrics: { interval: PT2M, queries: [{ name: CU_CAPACITY }] }\n",
    );
    expect((await t.reload()).ok).toBe(true);
    const [line] = t.logged("configuration reloaded", 30);
    expect(line).toMatchObject({
      clusters_added: ["in01-b"],
      clusters_removed: ["in01-a"],
      intervals: { "metrics.interval": "PT1M -> PT2M" },
    });
    // From every default query down to one: the others are listed as removed.
    const queries = line?.queries_changed as { added: string[]; removed: string[] };
    expect(queries.removed.some((q) => q.startsWith("CU_COMPUTATION"))).toBe(true);
    expect(queries.removed.some((q) => q.startsWith("CU_CAPACITY"))).toBe(false);
    expect(await t.reload()).toEqual({ ok: true, problems: [] });
    expect(t.logged("configuration reloaded; nothing changed", 30)).toHaveLength(1);
    expect(t.applied).toHaveLength(2);
    expect(JSON.stringify(t.lines)).not.toContain("sk-secret-key");
  });

  it("logs the same bad edit again once a good config ran in between", async () => {
    const t = await setup();
    const bad = "clusters: [{ id: in01-a }]\nbogus: 1\n";
    t.write(bad);
    await t.reload();
    t.write(GOOD);
    await t.reload();
    t.write(bad);
    await t.reload();
    expect(t.logged(REJECTED, 50)).toHaveLength(2);
  });
});
