import { describe, expect, it } from "vitest";
import { ConfigError } from "../../config/errors.js";
import { loadJobIdsFile } from "./list.js";

const FILE = "/etc/exporter/jobs.yaml";
const from = (text: string) => loadJobIdsFile(FILE, { readFile: async () => text });

describe("loadJobIdsFile", () => {
  it.each([
    ["a list", "- job-1\n- job-2\n"],
    ["an ids mapping", "ids:\n  - job-1\n  - job-2\n"],
    ["a flow list", "[job-1, job-2]\n"],
  ])("reads %s", async (_name, text) => {
    expect(await from(text)).toEqual(["job-1", "job-2"]);
  });

  it("reads an empty file as no jobs", async () => {
    expect(await from("")).toEqual([]);
  });

  it.each([
    ["duplicate in a list", "- j\n- j\n", "[1]: duplicate of ids[0]"],
    ["duplicate in a mapping", "ids: [j, k, j]\n", "ids[2]: duplicate of ids[0]"],
    ["an empty ID", "- ''\n", "[0]:"],
    ["unknown key", "idz: []\n", 'idz: unknown key (did you mean "ids"?)'],
    ["not a list", "5\n", `${FILE}: must be a list of job IDs`],
    ["syntax error", "- [\n", `${FILE}:2:1:`],
  ])("rejects %s", async (_name, text, expected) => {
    const err = await from(text).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toContain(expected);
  });
});
