import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  acceptsGzip,
  metricsResponse,
  OPENMETRICS_CONTENT_TYPE,
  prefersOpenMetrics,
  TEXT_CONTENT_TYPE,
} from "./exposition.js";
import { SampleStore } from "./store.js";

describe("prefersOpenMetrics", () => {
  it.each([
    [undefined, false],
    ["*/*", false],
    ["text/plain", false],
    ["application/openmetrics-text", true],
    // What Prometheus 2.x sends.
    [
      "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
      true,
    ],
    ["text/plain;q=1,application/openmetrics-text;q=0.5", false],
    ["application/openmetrics-text;q=0", false],
  ])("%s -> %s", (accept, want) => {
    expect(prefersOpenMetrics(accept)).toBe(want);
  });
});

describe("acceptsGzip", () => {
  it.each([
    [undefined, false],
    ["gzip", true],
    ["gzip, deflate, br", true],
    ["deflate", false],
    ["gzip;q=0", false],
    ["*", true],
  ])("%s -> %s", (enc, want) => {
    expect(acceptsGzip(enc)).toBe(want);
  });
});

describe("metricsResponse", () => {
  const rendered = Buffer.from("# HELP s S.\n# TYPE s gauge\ns 1\n");
  const self = { render: async (_om: boolean) => rendered };

  async function storeWithData() {
    const store = new SampleStore();
    store.put(
      { collector: "c", target: "t", slot: "data" },
      [{ name: "vdbcloud_x", help: "X.", type: "gauge" }],
      [{ family: "vdbcloud_x", labels: {}, value: 1 }],
      null,
    );
    await store.publishNow();
    return store;
  }

  it("serves text with the self-metrics after the published snapshot", async () => {
    const store = await storeWithData();
    const r = await metricsResponse(store, self, {});
    expect(r.contentType).toBe(TEXT_CONTENT_TYPE);
    expect(r.contentEncoding).toBeUndefined();
    expect(r.length).toBe(Buffer.concat(r.body.flat()).length);
    expect(Buffer.concat(r.body.flat()).toString()).toBe(
      "# HELP vdbcloud_x X.\n# TYPE vdbcloud_x gauge\nvdbcloud_x 1\n# HELP s S.\n# TYPE s gauge\ns 1\n",
    );
    store.close();
  });

  it("ends OpenMetrics with # EOF and gzips everything as one member", async () => {
    const store = await storeWithData();
    const r = await metricsResponse(store, self, {
      accept: "application/openmetrics-text",
      acceptEncoding: "gzip",
    });
    expect(r.contentType).toBe(OPENMETRICS_CONTENT_TYPE);
    expect(r.contentEncoding).toBe("gzip");
    const gz = Buffer.concat(r.body.flat());
    expect(gz.length).toBe(r.length);
    const body = gunzipSync(gz).toString();
    // One member: its trailer's size field covers the whole body (curl decodes only one member).
    expect(gz.readUInt32LE(gz.length - 4)).toBe(Buffer.byteLength(body));
    expect(body.startsWith("# HELP vdbcloud_x X.\n")).toBe(true);
    expect(body.endsWith("s 1\n# EOF\n")).toBe(true);
    store.close();
  });

  it("keeps each format's tail apart when one rendering serves both, scrape after scrape", async () => {
    const store = await storeWithData();
    const scrape = async (accept: string, acceptEncoding: string) => {
      const r = await metricsResponse(store, self, { accept, acceptEncoding });
      const bytes = Buffer.concat(r.body.flat());
      return (r.contentEncoding === "gzip" ? gunzipSync(bytes) : bytes).toString();
    };
    const om = "application/openmetrics-text";
    for (const encoding of ["gzip", "identity", "gzip"]) {
      expect((await scrape(om, encoding)).endsWith("s 1\n# EOF\n")).toBe(true);
      expect((await scrape("text/plain", encoding)).endsWith("\ns 1\n")).toBe(true);
    }
    store.close();
  });
});
