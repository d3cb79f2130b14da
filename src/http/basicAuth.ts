import { createHash } from "node:crypto";
import bcrypt from "bcryptjs";

/**
 * Checks `Authorization: Basic` credentials against bcrypt hashes (the exporter-toolkit's
 * `basic_auth_users`). bcrypt is deliberately slow, so a successful check is cached by a
 * SHA-256 of user and password for `cacheMs`: a scrape every few seconds does not pay it each
 * time. Unknown users still cost one bcrypt comparison, so timing does not reveal user names.
 */
export class BasicAuth {
  private readonly cache = new Map<string, number>();
  private static readonly dummyHash = bcrypt.hashSync("dummy-password-for-timing", 4);

  constructor(
    private readonly users: ReadonlyMap<string, string>,
    private readonly cacheMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async check(header: string | undefined): Promise<boolean> {
    const creds = parseBasic(header);
    if (!creds) return false;
    const key = createHash("sha256").update(creds.user).update("\u0000").update(creds.password).digest("hex");
    const until = this.cache.get(key);
    if (until !== undefined && until > this.now()) return true;
    const hash = this.users.get(creds.user);
    const ok = await bcrypt.compare(creds.password, hash ?? BasicAuth.dummyHash);
    if (ok && hash !== undefined) {
      // Bounded: a handful of users, each with one valid password, fills this cache.
      if (this.cache.size > 1000) this.cache.clear();
      this.cache.set(key, this.now() + this.cacheMs);
      return true;
    }
    return false;
  }
}

/** Parses `Basic base64(user:password)`; undefined when absent or malformed. */
export function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  if (!header) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m?.[1]) return undefined;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i < 0) return undefined;
  return { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}
