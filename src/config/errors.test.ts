import { describe, expect, it } from "vitest";
import { ConfigError, describeFsError, formatPath, formatProblems } from "./errors.js";

describe("formatPath", () => {
  it.each([
    [[], "(root)"],
    [["api", "api_key_file"], "api.api_key_file"],
    [["clusters", 1, "id"], "clusters[1].id"],
    [["metrics", "queries", 0, "stat"], "metrics.queries[0].stat"],
    [[2, "job_id"], "[2].job_id"],
  ] as const)("%j -> %s", (path, text) => {
    expect(formatPath(path)).toBe(text);
  });
});

describe("ConfigError", () => {
  it("lists every problem as path: message, one per line", () => {
    const cause = new Error("inner");
    const err = new ConfigError(
      "config_invalid",
      [
        { path: "clusters[1].id", message: "must not be empty" },
        { path: "metrics.queries[0].stat", message: "must be AVG or P99" },
      ],
      { cause },
    );
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe("config_invalid");
    expect(err.cause).toBe(cause);
    expect(err.message).toBe(
      "clusters[1].id: must not be empty\nmetrics.queries[0].stat: must be AVG or P99",
    );
    expect(err.problems).toHaveLength(2);
  });

  it("renders a problem without a path as its message", () => {
    expect(formatProblems([{ path: "", message: "alone" }])).toBe("alone");
  });
});

describe("describeFsError", () => {
  it.each([
    [{ code: "ENOENT" }, "ENOENT: no such file"],
    [{ code: "EACCES" }, "EACCES: permission denied"],
    [{ code: "EISDIR" }, "EISDIR: is a directory"],
    [{ code: "EMFILE" }, "EMFILE"],
    [new Error("boom"), "boom"],
  ])("%j -> %s", (err, text) => {
    expect(describeFsError(err)).toBe(text);
  });
});
