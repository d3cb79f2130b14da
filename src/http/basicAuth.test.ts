import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { BasicAuth, parseBasic } from "./basicAuth.js";

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

describe("BasicAuth", () => {
  it("accepts the right password, rejects others and unknown users, and caches successes", async () => {
    let now = 0;
    const users = new Map([["prom", bcrypt.hashSync("pw", 4)]]);
    const auth = new BasicAuth(users, 1000, () => now);
    expect(await auth.check(b64("prom:pw"))).toBe(true);
    expect(await auth.check(b64("prom:nope"))).toBe(false);
    expect(await auth.check(b64("other:pw"))).toBe(false);
    // While cached, a changed user table is not consulted; after expiry it is.
    users.delete("prom");
    now = 500;
    expect(await auth.check(b64("prom:pw"))).toBe(true);
    now = 1500;
    expect(await auth.check(b64("prom:pw"))).toBe(false);
  });
});
