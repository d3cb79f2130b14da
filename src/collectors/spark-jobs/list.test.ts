import { describe, expect, it } from "vitest";
import { ConfigError } from "../../config/errors.js";
import { loadSparkJobsFile } from "./list.js";

const FILE = "/etc/exporter/spark-jobs.yaml";
const from = (text: string) => loadSparkJobsFile(FILE, { readFile: async () => text });

describe("loadSparkJobsFile", () => {
  it.each([
    ["a list", "- {project_id: p, job_id: j1}\n- {project_id: p, job_id: j2}\n"],
    ["a jobs mapping", "jobs:\n  - {project_id: p, job_id: j1}\n  - {project_id: p, job_id: j2}\n"],
  ])("reads %s", async (_name, text) => {
    expect(await from(text)).toEqual([
      { projectId: "p", jobId: "j1" },
      { projectId: "p", jobId: "j2" },
    ]);
  });

  it("reads an empty file as no jobs", async () => {
    expect(await from("")).toEqual([]);
  });

  it.each([
    [
      "duplicate in a list",
      "- {project_id: p, job_id: j}\n- {project_id: p, job_id: j}\n",
      "[1]: duplicate of jobs[0]",
    ],
    [
      "duplicate in a mapping",
      "jobs:\n  - {project_id: p, job_id: j}\n  - {project_id: p, job_id: j}\n",
      "jobs[1]: duplicate of jobs[0]",
    ],
    ["missing job_id", "- {project_id: p}\n", "[0].job_id: is required"],
    ["unknown key", "jobz: []\n", 'jobz: unknown key (did you mean "jobs"?)'],
    ["not a list", "5\n", `${FILE}: must be a list of {project_id, job_id}`],
    ["syntax error", "- [\n", `${FILE}:2:1:`],
  ])("rejects %s", async (_name, text, expected) => {
    const err = await from(text).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toContain(expected);
  });

  it("reports an unreadable file", async () => {
    const err = await loadSparkJobsFile(FILE, {
      readFile: () => Promise.reject(Object.assign(new Error("x"), { code: "ENOENT" })),
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "config_unreadable",
      message: `${FILE}: cannot read (ENOENT: no such file)`,
    });
  });
});
