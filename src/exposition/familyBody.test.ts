import { describe, expect, it } from "vitest";
import { FamilyBody, SEGMENT_BYTES } from "./familyBody.js";

type Op = ["set", string, string] | ["delete", string] | ["compact"];

/** The lines of a body's parts, sorted: a family's series may come in any order. */
function lines(body: FamilyBody): string[] {
  return Buffer.concat(body.parts()).toString("utf8").split("\n").filter(Boolean).sort();
}

function apply(body: FamilyBody, model: Map<string, string>, op: Op): void {
  if (op[0] === "set") {
    body.set(op[1], Buffer.from(op[2]));
    model.set(op[1], op[2]);
  } else if (op[0] === "delete") {
    expect(body.delete(op[1])).toBe(model.delete(op[1]));
  } else {
    body.compact();
  }
}

const expected = (model: Map<string, string>) =>
  [...model.values()].join("").split("\n").filter(Boolean).sort();

const modelBytes = (model: Map<string, string>) =>
  [...model.values()].reduce((n, v) => n + Buffer.byteLength(v), 0);

/**
 * Random puts (a roll under `setBelow` of 100), deletes (under `deleteBelow`) and compactions
 * on `body` and its model, from a fixed linear congruential sequence (reproducible, no
 * dependency); every `checkEvery` steps the body must hold the model's lines and bytes.
 */
function randomWalk(
  body: FamilyBody,
  model: Map<string, string>,
  o: {
    seed: number;
    steps: number;
    ids: number;
    setBelow: number;
    deleteBelow: number;
    line: (id: string, step: number, next: (n: number) => number) => string;
    checkEvery: number;
  },
): void {
  let seed = o.seed;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let step = 0; step < o.steps; step++) {
    const id = `t${next(o.ids)}`;
    const roll = next(100);
    const op: Op =
      roll < o.setBelow
        ? ["set", id, o.line(id, step, next)]
        : roll < o.deleteBelow
          ? ["delete", id]
          : ["compact"];
    apply(body, model, op);
    if (step % o.checkEvery === 0) {
      expect(lines(body), `step ${step}`).toEqual(expected(model));
      expect(body.bytes, `step ${step}`).toBe(modelBytes(model));
    }
  }
}

/** Puts entry `id` as its line `${id} ${n}`. */
const set = (id: string, n: number): Op => ["set", id, `${id} ${n}\n`];
const COMPACT: Op = ["compact"];
/** Three entries put, then compacted into one run. */
const ABC_COMPACTED: Op[] = [set("a", 1), set("b", 1), set("c", 1), COMPACT];

describe("FamilyBody", () => {
  it.each<{ name: string; ops: Op[]; parts: number; replaced: number; added: number }>([
    { name: "empty", ops: [], parts: 0, replaced: 0, added: 0 },
    {
      name: "puts only: one part per entry",
      ops: [set("a", 1), set("b", 1)],
      parts: 2,
      replaced: 0,
      added: 2,
    },
    { name: "compacted: one part", ops: ABC_COMPACTED, parts: 1, replaced: 0, added: 0 },
    {
      name: "middle entry replaced: run before, run after, the new bytes",
      ops: [...ABC_COMPACTED, set("b", 2)],
      parts: 3,
      replaced: 1,
      added: 0,
    },
    {
      name: "first and last replaced twice: one run between, the two new entries",
      ops: [...ABC_COMPACTED, set("a", 2), set("c", 2), set("a", 3)],
      parts: 3,
      replaced: 2,
      added: 0,
    },
    {
      name: "deleted from the run: cut out",
      ops: [set("a", 1), set("b", 1), COMPACT, ["delete", "a"], ["delete", "zz"]],
      parts: 1,
      replaced: 1,
      added: 0,
    },
    {
      name: "put after compaction, then deleted: gone",
      ops: [set("a", 1), COMPACT, set("n", 1), ["delete", "n"]],
      parts: 1,
      replaced: 0,
      added: 1,
    },
    {
      name: "adjacent entries replaced: no empty piece between",
      ops: [set("a", 1), set("b", 1), COMPACT, set("a", 2), set("b", 2)],
      parts: 2,
      replaced: 2,
      added: 0,
    },
    {
      name: "an empty chunk takes no part and cuts nothing",
      ops: [["set", "a", ""], COMPACT, ["set", "a", ""]],
      parts: 0,
      replaced: 0,
      added: 0,
    },
  ])("$name", ({ ops, parts, replaced, added }) => {
    const body = new FamilyBody();
    const model = new Map<string, string>();
    for (const op of ops) apply(body, model, op);
    expect(lines(body)).toEqual(expected(model));
    expect(body.parts()).toHaveLength(parts);
    expect([body.replaced, body.added]).toEqual([replaced, added]);
    expect(body.size).toBe(model.size);
    expect(body.bytes).toBe(modelBytes(model));
  });

  it("holds every entry exactly once through random puts, deletes and compactions", () => {
    const body = new FamilyBody();
    const model = new Map<string, string>();
    randomWalk(body, model, {
      seed: 12345,
      steps: 3000,
      ids: 40,
      setBelow: 70,
      deleteBelow: 95,
      line: (id, step) => `x{t="${id}"} ${step}\n`,
      checkEvery: 50,
    });
    expect(lines(body)).toEqual(expected(model));
  });

  it("keeps the run in segments of at most SEGMENT_BYTES, entries crossing their edges", () => {
    // Entries of a third to one and a half segments: runs of several segments, entries and
    // cuts that straddle segment boundaries.
    const body = new FamilyBody();
    const model = new Map<string, string>();
    randomWalk(body, model, {
      seed: 777,
      steps: 400,
      ids: 12,
      setBelow: 60,
      deleteBelow: 80,
      line: (id, step, next) => `${id} ${"p".repeat(SEGMENT_BYTES / 3 + next(SEGMENT_BYTES + 1))} ${step}\n`,
      checkEvery: 1,
    });
    body.compact();
    const segments = body.parts();
    expect(segments.length).toBe(Math.ceil(body.bytes / SEGMENT_BYTES));
    expect(segments.slice(0, -1).every((b) => b.length === SEGMENT_BYTES)).toBe(true);
    expect(Buffer.concat(segments).length).toBe(body.bytes);
  });

  it.each<{ name: string; cut: string; pieces: number[] }>([
    // Entries a (40 KiB), b (40 KiB), c (20 KiB): b straddles the first segment's end.
    { name: "a cut across a segment edge leaves each side its piece", cut: "b", pieces: [40, 20] },
    { name: "a cut at the start of the run", cut: "a", pieces: [24, 36] },
    { name: "a cut at the end of the run", cut: "c", pieces: [64, 16] },
  ])("$name", ({ cut, pieces }) => {
    const KiB = 1024;
    const body = new FamilyBody();
    const size = { a: 40 * KiB, b: 40 * KiB, c: 20 * KiB } as Record<string, number>;
    for (const id of ["a", "b", "c"]) body.set(id, Buffer.alloc(size[id] as number, id));
    body.compact();
    expect(body.parts().map((b) => b.length)).toEqual([SEGMENT_BYTES, 100 * KiB - SEGMENT_BYTES]);
    body.delete(cut);
    expect(body.parts().map((b) => b.length / KiB)).toEqual(pieces);
    const text = Buffer.concat(body.parts()).toString("latin1");
    expect(text).toBe(
      ["a", "b", "c"]
        .filter((id) => id !== cut)
        .map((id) => id.repeat(size[id] as number))
        .join(""),
    );
  });

  it("never modifies buffers a snapshot took: parts listed before stay as they were", () => {
    const body = new FamilyBody();
    for (const id of ["a", "b", "c"]) body.set(id, Buffer.from(`${id} 1\n`));
    body.compact();
    const before = body.parts();
    const copy = Buffer.concat(before).toString();
    body.set("b", Buffer.from("b 2\n"));
    body.compact();
    body.set("a", Buffer.from("a 3\n"));
    expect(Buffer.concat(before).toString()).toBe(copy);
    expect(lines(body)).toEqual(["a 3", "b 2", "c 1"]);
  });
});
