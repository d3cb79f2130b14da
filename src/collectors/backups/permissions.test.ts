import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { PermissionLog } from "./permissions.js";

/** A logger whose lines read "<level> <fields> <msg>". */
function recorder() {
  const lines: string[] = [];
  const logger = pino(
    { level: "info", base: null, timestamp: false },
    {
      write: (l: string) => {
        const { level, msg, ...fields } = JSON.parse(l) as { level: number; msg: string };
        lines.push(`${level === 40 ? "warn" : "info"} ${JSON.stringify(fields)} ${msg}`);
      },
    },
  );
  return { lines, logger };
}

describe("PermissionLog", () => {
  it("logs one warning per collector and credential, however many calls and cycles refuse", () => {
    const { lines, logger } = recorder();
    const log = new PermissionLog();
    for (let cycle = 0; cycle < 5; cycle++) {
      log.refused(logger, "backups", "default", "listing");
      log.refused(logger, "backups", "default", "policy");
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warn \{"collector":"backups","credential":"default"\} credential lacks the permission/,
    );
    // Another credential is another line.
    log.refused(logger, "backups", "cluster key #1", "policy");
    expect(lines).toHaveLength(2);
  });

  it("stays refused while any call is, and says once when every call is permitted again", () => {
    const { lines, logger } = recorder();
    const log = new PermissionLog();
    log.refused(logger, "backups", "default", "listing");
    log.refused(logger, "backups", "default", "policy");
    // Policies readable, listing not: no flapping between lines.
    for (let cycle = 0; cycle < 3; cycle++) {
      log.permitted(logger, "backups", "default", "policy");
      log.refused(logger, "backups", "default", "listing");
    }
    expect(lines).toHaveLength(1);
    log.permitted(logger, "backups", "default", "listing");
    expect(lines.slice(1)).toEqual([
      'info {"collector":"backups","credential":"default"} credential permitted again',
    ]);
    // A change back is a change again.
    log.refused(logger, "backups", "default", "listing");
    expect(lines).toHaveLength(3);
    // Permitted without a refusal before: nothing to say.
    log.permitted(logger, "backups", "other", "listing");
    expect(lines).toHaveLength(3);
  });
});
