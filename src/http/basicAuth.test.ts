import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { bcryptCost } from "../config/webConfig.js";
import {
  BasicAuth,
  type BcryptComparer,
  defaultMaxWaiting,
  dummyHash,
  parseBasic,
  Semaphore,
} from "./basicAuth.js";

const b64 = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("parseBasic", () => {
  it.each([
    [undefined, undefined],
    ["Bearer abc", undefined],
    ["Basic !!!", undefined],
    [b64("nocolon"), undefined],
    [b64("u:p"), { user: "u", password: "p" }],
    [b64("u:p:with:colons"), { user: "u", password: "p:with:colons" }],
    [b64(":"), { user: "", password: "" }],
  ])("%s", (header, want) => {
    expect(parseBasic(header)).toEqual(want);
  });
});

/** A comparer that answers when told to, recording how many run at once. */
function heldComparer() {
  const state = { running: 0, most: 0, calls: 0, hashes: [] as string[] };
  const release: Array<() => void> = [];
  const comparer: BcryptComparer = {
    compare: (password, hash) => {
      state.calls++;
      state.hashes.push(hash);
      state.running++;
      state.most = Math.max(state.most, state.running);
      return new Promise<boolean>((resolve) =>
        release.push(() => {
          state.running--;
          resolve(bcrypt.compareSync(password, hash));
        }),
      );
    },
    close: async () => undefined,
  };
  // A comparison starts a few microtasks after its check: give it turns to show up.
  const releaseAll = async () => {
    for (let idle = 0; idle < 3; idle++) {
      await new Promise((r) => setImmediate(r));
      while (release.length > 0) {
        idle = 0;
        release.shift()?.();
        await new Promise((r) => setImmediate(r));
      }
    }
  };
  return { comparer, state, releaseAll };
}

describe("BasicAuth", () => {
  const hash4 = bcrypt.hashSync("pw", 4);

  it("accepts the right password on a worker thread, rejects others and unknown users", async () => {
    const auth = new BasicAuth(new Map([["prom", hash4]]));
    try {
      expect(await auth.check(b64("prom:pw"))).toBe("allowed");
      expect(await auth.check(b64("prom:nope"))).toBe("denied");
      expect(await auth.check(b64("other:pw"))).toBe("denied");
      expect(await auth.check("Bearer x")).toBe("denied");
    } finally {
      await auth.close();
    }
  });

  it("checks unknown users against a dummy hash of the highest configured cost, made once", () => {
    const users = new Map([
      ["a", hash4],
      ["b", bcrypt.hashSync("pw", 6)],
    ]);
    const { comparer } = heldComparer();
    expect(new BasicAuth(users, { comparer }).dummyCost).toBe(6);
    expect(new BasicAuth(new Map(), { comparer }).dummyCost).toBe(4);
    const dummy = dummyHash(12);
    expect(dummy).toMatch(/^\$2b\$12\$[./A-Za-z0-9]{53}$/);
    expect(dummy).not.toBe(dummyHash(12));
  });

  it("runs at most maxConcurrent checks, queues maxWaiting, and answers busy beyond at once", async () => {
    const { comparer, state, releaseAll } = heldComparer();
    const auth = new BasicAuth(new Map([["prom", hash4]]), { comparer, maxConcurrent: 2, maxWaiting: 3 });
    const checks = Array.from({ length: 8 }, (_, i) => auth.check(b64(`prom:wrong-${i}`)));
    const early = await Promise.race([
      Promise.all(checks.slice(5)),
      new Promise((r) => setTimeout(r, 50, "waiting")),
    ]);
    expect(early).toEqual(["busy", "busy", "busy"]);
    expect(state.running).toBe(2);
    await releaseAll();
    expect(await Promise.all(checks.slice(0, 5))).toEqual(Array(5).fill("denied"));
    expect(state.most).toBe(2);
    expect(state.calls).toBe(5);
  });

  it("an unknown user waits in the same queue and costs one comparison against the dummy hash", async () => {
    const { comparer, state, releaseAll } = heldComparer();
    const auth = new BasicAuth(new Map([["prom", hash4]]), { comparer });
    const check = auth.check(b64("nobody:pw"));
    await releaseAll();
    expect(await check).toBe("denied");
    expect(state.calls).toBe(1);
    expect(bcryptCost(state.hashes[0] ?? "")).toBe(4);
    expect(state.hashes[0]).not.toBe(hash4);
  });

  it("caches outcomes keyed on a digest (never the password) until they expire, and shares checks in flight", async () => {
    let now = 0;
    const { comparer, state, releaseAll } = heldComparer();
    const auth = new BasicAuth(new Map([["prom", hash4]]), { comparer, cacheMs: 1000, now: () => now });
    const twins = [auth.check(b64("prom:pw")), auth.check(b64("prom:pw"))];
    await releaseAll();
    expect(await Promise.all(twins)).toEqual(["allowed", "allowed"]);
    expect(state.calls).toBe(1);
    now = 500;
    expect(await auth.check(b64("prom:pw"))).toBe("allowed");
    expect(state.calls).toBe(1);
    const cacheKeys = [...(auth as unknown as { cache: Map<string, unknown> }).cache.keys()];
    expect(cacheKeys.every((k) => /^[0-9a-f]{64}$/.test(k))).toBe(true);
    now = 1500;
    const again = auth.check(b64("prom:pw"));
    await releaseAll();
    expect(await again).toBe("allowed");
    expect(state.calls).toBe(2);
  });

  it("keeps at most cacheEntries outcomes", async () => {
    const { comparer, releaseAll } = heldComparer();
    const auth = new BasicAuth(new Map([["prom", hash4]]), { comparer, cacheEntries: 3 });
    for (let i = 0; i < 10; i++) {
      const check = auth.check(b64(`prom:w${i}`));
      await releaseAll();
      await check;
    }
    expect((auth as unknown as { cache: Map<string, unknown> }).cache.size).toBe(3);
  });
});

describe("defaultMaxWaiting", () => {
  it.each([
    [4, 32],
    [10, 32],
    [11, 16],
    [12, 8],
    [13, 4],
    [14, 4],
  ])("cost %i: %i waiting", (cost, want) => {
    expect(defaultMaxWaiting(cost)).toBe(want);
  });
});

describe("Semaphore", () => {
  it("refuses beyond its queue and hands a freed slot to the next waiter", async () => {
    const sem = new Semaphore(1, 1);
    let open!: () => void;
    const first = sem.tryRun(() => new Promise<string>((r) => (open = () => r("a"))));
    const second = sem.tryRun(async () => "b");
    expect(sem.tryRun(async () => "c")).toBeUndefined();
    expect(sem.active).toBe(1);
    await new Promise((r) => setImmediate(r));
    open();
    expect(await first).toBe("a");
    expect(await second).toBe("b");
    expect(sem.active).toBe(0);
  });
});
