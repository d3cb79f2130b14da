import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEPLOYED_RUNTIME } from "./runtime.js";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

/** Node flags that Node accepts in NODE_OPTIONS travel there; the others on the command line. */
const inOptions = DEPLOYED_RUNTIME.nodeFlags.filter((f) =>
  process.allowedNodeEnvironmentFlags.has(f.split("=")[0] ?? f),
);
const onCommandLine = DEPLOYED_RUNTIME.nodeFlags.filter((f) => !inOptions.includes(f));

/** The runtime as environment variables. */
const expected = {
  ...DEPLOYED_RUNTIME.env,
  NODE_OPTIONS: inOptions.join(" "),
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

  it("the Dockerfile's entrypoint gives the flags NODE_OPTIONS cannot carry", () => {
    const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(read("Dockerfile"))?.[1];
    expect(JSON.parse(entrypoint ?? "null")).toEqual(["node", ...onCommandLine, "dist/main.js"]);
  });

  it("the Kubernetes Deployment sets exactly these variables and keeps the image's entrypoint", () => {
    const d = parse(read("deploy/kubernetes/base/deployment.yaml")) as {
      spec: {
        template: {
          spec: { containers: { env: { name: string; value: string }[]; command?: unknown }[] };
        };
      };
    };
    const container = d.spec.template.spec.containers[0];
    const env = new Map(container?.env.map((e) => [e.name, e.value]));
    for (const [k, v] of Object.entries(expected)) expect(env.get(k), k).toBe(v);
    // A `command` would replace the entrypoint and lose the command-line flags.
    expect(container?.command).toBeUndefined();
  });
});
