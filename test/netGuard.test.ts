import { request } from "undici";
import { describe, expect, it } from "vitest";
import { allowedHost, connectHost } from "./netGuard.js";

describe("allowedHost", () => {
  it.each([
    { host: "127.0.0.1", allowed: true },
    { host: "127.5.0.1", allowed: true },
    { host: "::1", allowed: true },
    { host: "localhost", allowed: true },
    { host: undefined, allowed: true },
    { host: "api.vdbcloud.test", allowed: true },
    { host: "nothing.invalid", allowed: true },
    { host: "example.com", allowed: false },
    { host: "api.cloud.zilliz.com", allowed: false },
    { host: "test.example.org", allowed: false },
    { host: "10.0.0.1", allowed: false },
  ])("$host: $allowed", ({ host, allowed }) => {
    expect(allowedHost(host)).toBe(allowed);
  });
});

describe("connectHost", () => {
  it.each([
    { args: [{ host: "a.test", port: 443 }], host: "a.test" },
    { args: [[{ host: "b.test", port: 80 }, null]], host: "b.test" },
    { args: [{ path: "/tmp/s.sock" }], host: "localhost" },
    { args: [443, "c.test"], host: "c.test" },
    { args: [443], host: undefined },
  ])("$host", ({ args, host }) => {
    expect(connectHost(args)).toBe(host);
  });
});

describe("the installed guard (test/setup.ts)", () => {
  it("refuses a real host before any byte leaves, naming it", async () => {
    await expect(request("https://example.com/")).rejects.toThrow(
      "tests may not connect to example.com: no network in tests",
    );
  });
});
