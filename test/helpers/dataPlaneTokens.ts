/**
 * The data-plane credentials of a simulator's clusters in a raw config: each cluster whose data
 * plane takes a `username:password` gets it through a token file (or the one `override` names).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Simulator } from "../../src/simulator/index.js";
import { tempDir } from "./tempDir.js";

type Raw = Record<string, unknown>;

/** Sets `clusters[].data_plane.token_file` where the simulator's cluster (or `override`) has a token. */
export function withDataPlaneTokens(sim: Simulator, raw: Raw, override: Record<string, string> = {}): void {
  const dir = tempDir("vdbcloud-collections-");
  raw.clusters = (raw.clusters as Raw[]).map((c) => {
    const id = c.id as string;
    const token = override[id] ?? sim.state.dataPlaneCredential(id);
    if (token === undefined) return c;
    const file = join(dir, `${id}.token`);
    writeFileSync(file, `${token}\n`);
    return { ...c, data_plane: { ...((c.data_plane as Raw | undefined) ?? {}), token_file: file } };
  });
}
