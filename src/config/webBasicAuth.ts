/**
 * The web config's `basic_auth_users` hashes. bcrypt's cost decides how long every request's
 * password check holds the CPU, so a hash is checked here, when the file is loaded, rather than
 * found slow at the first scrape; the HTTP layer reads the same cost (http/basicAuth.ts).
 */
import * as z from "zod";

/** bcrypt modular crypt format: $2a$/$2b$/$2y$, two-digit cost, 22 salt + 31 hash characters. */
const BCRYPT_HASH = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

/**
 * The highest bcrypt cost accepted. Each step doubles the work: a cost-14 check already holds a
 * CPU for about a second in JavaScript, and cost 31 would hold it for days per request.
 */
export const MAX_BCRYPT_COST = 14;

/** The cost of a well-formed bcrypt hash, else undefined. */
export function bcryptCost(hash: string): number | undefined {
  const cost = Number(BCRYPT_HASH.exec(hash)?.[1]);
  return Number.isInteger(cost) && cost >= 4 && cost <= 31 ? cost : undefined;
}

const HASH_FORMAT =
  "must be a bcrypt hash: $2a$, $2b$ or $2y$, a cost from 04 to 14, 60 characters " +
  "(make one with: htpasswd -nBC 10 '' | tr -d ':\\n')";

/** One user's hash: well formed, and cheap enough to check on every request. */
export const bcryptHash = z.string({ error: "must be a bcrypt hash (a string)" }).superRefine((hash, ctx) => {
  const cost = bcryptCost(hash);
  if (cost === undefined) ctx.addIssue({ code: "custom", message: HASH_FORMAT, input: "" });
  else if (cost > MAX_BCRYPT_COST) {
    ctx.addIssue({
      code: "custom",
      message:
        `bcrypt cost ${cost} is above the maximum of ${MAX_BCRYPT_COST}: every check would hold a CPU ` +
        `for ${2 ** (cost - 10) / 10} s or more (make one with: htpasswd -nBC 10 '' | tr -d ':\\n')`,
      input: "",
    });
  }
});
