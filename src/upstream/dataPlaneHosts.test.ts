import { describe, expect, it } from "vitest";
import { checkedDataPlaneAddress, DATA_PLANE_HOST_ENTRY, ForeignDataPlaneError } from "./dataPlaneHosts.js";

describe("checkedDataPlaneAddress", () => {
  it.each([
    // The documented shapes: dedicated, serverless, the older serverless domain, the service in China.
    ["https://in01-abc.aws-us-west-2.vectordb.zillizcloud.com:19530", [], true],
    ["https://in03-abc.serverless.gcp-us-west1.vectordb.zillizcloud.com", [], true],
    ["https://in03-abc.serverless.gcp-us-west1.cloud.zilliz.com", [], true],
    ["https://in03-abc.serverless.ali-cn-hangzhou.cloud.zilliz.com.cn", [], true],
    ["https://in01-abc.ali-cn-hangzhou.vectordb.zillizcloud.cn:19530", [], true],
    // Plaintext, another host, a look-alike, credentials, another scheme: refused.
    ["http://in01-abc.aws-us-west-2.vectordb.zillizcloud.com:19530", [], false],
    ["https://localhost:18081/dp/in01-abc", [], false],
    ["http://localhost:18081/dp/in01-abc", [], false],
    ["https://zillizcloud.com.attacker.example", [], false],
    ["https://attackerzillizcloud.com", [], false],
    ["https://zillizcloud.com", [], false],
    ["https://user:pw@in01-abc.aws-us-west-2.vectordb.zillizcloud.com", [], false],
    ["ftp://in01-abc.aws-us-west-2.vectordb.zillizcloud.com", [], false],
    ["not a url", [], false],
    // The user's list: a host, a domain, plaintext only where the entry says http://.
    ["https://proxy.internal:8443", ["proxy.internal"], true],
    ["http://proxy.internal:8080", ["proxy.internal"], false],
    ["http://proxy.internal:8080", ["http://proxy.internal"], true],
    ["https://a.b.corp.example", ["*.corp.example"], true],
    ["https://corp.example", ["*.corp.example"], false],
    ["http://127.0.0.1:4000/dp/in01-a", ["http://127.0.0.1"], true],
    ["http://localhost:4000/dp/in01-a", ["http://127.0.0.1"], false],
    ["https://PROXY.Internal", ["proxy.internal"], true],
  ])("%s with %j: %s", (address, allowed, ok) => {
    const check = () => checkedDataPlaneAddress("in01-abc", address, allowed);
    if (ok) expect(check()).toBe(address);
    else expect(check).toThrow(ForeignDataPlaneError);
  });

  it("says which cluster and what to do, with a stable code, and quotes no more than the origin", () => {
    let err: unknown;
    try {
      checkedDataPlaneAddress("in01-abc", "http://evil.example:81/path?token=secret", []);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ForeignDataPlaneError);
    expect((err as ForeignDataPlaneError).code).toBe("foreign_endpoint");
    expect((err as Error).message).toContain("cluster in01-abc");
    expect((err as Error).message).toContain("http://evil.example:81");
    expect((err as Error).message).toContain("api.data_plane_hosts");
    expect((err as Error).message).not.toContain("secret");
  });
});

describe("DATA_PLANE_HOST_ENTRY", () => {
  it.each([
    ["proxy.internal", true],
    ["*.corp.example", true],
    ["http://127.0.0.1", true],
    ["https://proxy.internal", true],
    ["http://127.0.0.1:8080", false],
    ["*", false],
    ["http://", false],
    ["proxy.internal/path", false],
  ])("%s: %s", (entry, ok) => {
    expect(DATA_PLANE_HOST_ENTRY.test(entry)).toBe(ok);
  });
});
