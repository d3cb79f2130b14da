import { describe, expect, it } from "vitest";
import { controllerBaseUrl, joinUrl, PathSegmentError, segment } from "./urls.js";

describe("joinUrl", () => {
  it.each([
    {
      base: "https://api.cloud.zilliz.com",
      path: "/v2/regions",
      expected: "https://api.cloud.zilliz.com/v2/regions",
    },
    {
      base: "https://api.cloud.zilliz.com/",
      path: "/v2/regions",
      expected: "https://api.cloud.zilliz.com/v2/regions",
    },
    {
      base: "http://127.0.0.1:1234/ctl/aws-us-west-2",
      path: "/v1/projects",
      expected: "http://127.0.0.1:1234/ctl/aws-us-west-2/v1/projects",
    },
    {
      base: "http://127.0.0.1:1234/ctl/aws-us-west-2//",
      path: "v1/projects",
      expected: "http://127.0.0.1:1234/ctl/aws-us-west-2/v1/projects",
    },
    { base: "https://h.example/p?stale=1#frag", path: "/v2/x", expected: "https://h.example/p/v2/x" },
  ])("$base + $path", ({ base, path, expected }) => {
    expect(joinUrl(base, path).toString()).toBe(expected);
  });

  it("builds the query with URLSearchParams, leaving out undefined values", () => {
    const url = joinUrl("https://h.example", "/v2/clusters", {
      projectId: "p 1&x",
      regionId: undefined,
      pageSize: "100",
    });
    expect(url.search).toBe("?projectId=p+1%26x&pageSize=100");
    expect(url.searchParams.get("projectId")).toBe("p 1&x");
  });

  it("keeps encoded segments encoded", () => {
    expect(joinUrl("https://h.example", `/v2/clusters/${segment("a/b?c")}`).pathname).toBe(
      "/v2/clusters/a%2Fb%3Fc",
    );
  });

  it.each(["ftp://h.example", "not a url"])("rejects %s", (base) => {
    expect(() => joinUrl(base, "/v2/x")).toThrow(TypeError);
  });
});

describe("controllerBaseUrl", () => {
  it.each([
    {
      template: "https://controller.api.{region}.zillizcloud.com",
      region: "aws-us-west-2",
      expected: "https://controller.api.aws-us-west-2.zillizcloud.com",
    },
    {
      template: "http://127.0.0.1:9/ctl/{region}",
      region: "gcp us/1",
      expected: "http://127.0.0.1:9/ctl/gcp%20us%2F1",
    },
    { template: "http://h/{region}/{region}", region: "r", expected: "http://h/r/r" },
  ])("$template with $region", ({ template, region, expected }) => {
    expect(controllerBaseUrl(template, region)).toBe(expected);
  });
});

describe("segment: IDs that would change the route", () => {
  it.each(["", ".", ".."])("%j is refused", (id) => {
    expect(() => segment(id)).toThrow(PathSegmentError);
  });

  it.each([
    ["in01-a", "in01-a"],
    ["...", "..."],
    ["a/b", "a%2Fb"],
    ["%2e%2e", "%252e%252e"],
  ])("%j is encoded as %j", (id, want) => {
    expect(segment(id)).toBe(want);
  });
});
