import type { Server } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { startPromClientServer, startStaticServer } from "./baselineServers.js";
import { parseExposition } from "./exposition.js";
import { buildRegistries } from "./promBaseline.js";
import { Scraper, VARIANTS } from "./scrape.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const byName = (name: string) => VARIANTS.find((v) => v.name === name) as (typeof VARIANTS)[0];

describe("static server", () => {
  it.each(VARIANTS.map((v) => ({ name: v.name })))(
    "answers $name with its prepared body",
    async ({ name }) => {
      const bodies = Object.fromEntries(VARIANTS.map((v) => [v.name, Buffer.from(`body of ${v.name}`)]));
      const { server, url } = await startStaticServer(bodies);
      servers.push(server);
      const scraper = new Scraper(url);
      const s = await scraper.get("/metrics", byName(name));
      await scraper.close();
      expect(s.body.toString()).toBe(`body of ${name}`);
      expect(s.contentEncoding).toBe(name.endsWith("gzip") ? "gzip" : undefined);
    },
  );
});

describe("prom-client server", () => {
  const registries = buildRegistries(parseExposition('vdbcloud_entities{cluster_id="a"} 7\n'));

  it.each([
    { name: "text", om: false },
    { name: "openmetrics", om: true },
    { name: "text+gzip", om: false },
    { name: "openmetrics+gzip", om: true },
  ])("renders the registry for $name", async ({ name, om }) => {
    const { server, url } = await startPromClientServer(registries);
    servers.push(server);
    const scraper = new Scraper(url);
    const s = await scraper.get("/metrics", byName(name));
    await scraper.close();
    const body = (name.endsWith("gzip") ? gunzipSync(s.body) : s.body).toString();
    expect(body).toContain('vdbcloud_entities{cluster_id="a"} 7');
    expect(body.includes("# EOF")).toBe(om);
  });
});
