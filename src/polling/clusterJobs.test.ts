import { describe, expect, it } from "vitest";
import { ClusterJobMemory, type ListedJob, noteKey, terminalSince } from "./clusterJobs.js";

const T0 = 1_700_000_000_000;

interface Job extends ListedJob {
  readonly done: boolean;
}

/** The smallest memory on the base: first seen terminal per job, a note per job. */
class Memory extends ClusterJobMemory<number | null, true> {
  observe(
    clusterId: string,
    jobs: readonly Job[],
    nowMs: number,
    keepEmpty = false,
  ): ReadonlyMap<string, number | null> {
    return this.relist(clusterId, jobs, (job, before) => terminalSince(job.done, before, nowMs), keepEmpty);
  }
  note(clusterId: string, jobId: string): boolean {
    return this.notes.changed(noteKey(clusterId, jobId), true);
  }
  keep(clusterId: string, jobIds: readonly string[]): void {
    this.keepJobs(clusterId, (id) => jobIds.includes(id));
  }
  has(clusterId: string): boolean {
    return this.clusters.has(clusterId);
  }
}

const j = (jobId: string, done = false): Job => ({ jobId, done });

describe("terminalSince", () => {
  it.each<[terminal: boolean, before: number | null | undefined, expected: number | null]>([
    [true, undefined, T0],
    [true, null, T0],
    [true, T0 - 5, T0 - 5],
    [false, T0 - 5, null],
    [false, undefined, null],
  ])("terminal %s, before %s -> %s", (terminal, before, expected) => {
    expect(terminalSince(terminal, before, T0)).toBe(expected);
  });
});

describe("ClusterJobMemory", () => {
  it("keeps when a job was first seen terminal, and forgets jobs that left the listing with their notes", () => {
    const m = new Memory();
    m.observe("c1", [j("a", true), j("b")], T0);
    expect(m.note("c1", "a")).toBe(true);
    expect(m.note("c1", "a")).toBe(false);
    expect([...m.observe("c1", [j("a", true), j("b", true)], T0 + 1)]).toEqual([
      ["a", T0],
      ["b", T0 + 1],
    ]);
    m.observe("c1", [j("b", true)], T0 + 2);
    expect(m.size).toBe(1);
    m.observe("c1", [j("a", true)], T0 + 3);
    expect(m.note("c1", "a")).toBe(true);
  });

  it("forgets an empty cluster unless asked to keep it", () => {
    const m = new Memory();
    m.observe("c1", [], T0);
    m.observe("c2", [], T0, true);
    expect([m.has("c1"), m.has("c2"), m.size]).toEqual([false, true, 0]);
  });

  it("keeps only the jobs and clusters still known, each with its notes", () => {
    const m = new Memory();
    m.observe("c1", [j("a"), j("b")], T0);
    m.observe("c2", [j("a")], T0);
    m.note("c1", "a");
    m.note("c1", "b");
    m.note("c2", "a");
    m.keep("c1", ["b"]);
    expect([m.size, m.note("c1", "b"), m.note("c1", "a")]).toEqual([2, false, true]);
    m.retain(new Set(["c1"]));
    expect([m.has("c2"), m.note("c2", "a")]).toEqual([false, true]);
    m.forgetCluster("c1");
    expect([m.has("c1"), m.size]).toEqual([false, 0]);
  });
});
