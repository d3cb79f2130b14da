import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEPLOYED_RUNTIME } from "./runtime.js";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

/** The runtime as environment variables: the node flags travel in NODE_OPTIONS. */
const expected = {
  ...DEPLOYED_RUNTIME.env,
  NODE_OPTIONS: DEPLOYED_RUNTIME.nodeFlags.join(" "),
};

describe("the benchmarked runtime is the deployed one", () => {
  it("the Dockerfile's runtime stage sets exactly these variables", () => {
    const runtimeStage =
      read("Dockerfile")
        .split(/^FROM /m)
        .at(-1) ?? "";
    const env = new Map<string, string>();
    for (const m of runtimeStage.replace(/\\\n/g, " ").matchAll(/^ENV (.+)$/gm)) {
      for (const pair of (m[1] ?? "").trim().split(/\s+/)) {
        const at = pair.indexOf("=");
        env.set(pair.slice(0, at), pair.slice(at + 1));
      }
    }
    for (const [k, v] of Object.entries(expected)) expect(env.get(k), k).toBe(v);
  });

  it("the Kubernetes Deployment sets exactly these variables", () => {
    const d = parse(read("deploy/kubernetes/base/deployment.yaml")) as {
      spec: { template: { spec: { containers: { env: { name: string; value: string }[] }[] } } };
    };
    const env = new Map(d.spec.template.spec.containers[0]?.env.map((e) => [e.name, e.value]));
    for (const [k, v] of Object.entries(expected)) expect(env.get(k), k).toBe(v);
  });
});
