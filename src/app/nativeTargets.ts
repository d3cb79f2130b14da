/**
 * The answer of GET /sd/native-export (docs/design.md section 3): Prometheus's http_sd_configs
 * JSON, one target group per cluster of this replica that the service's own endpoint serves.
 * It is made ahead of requests, when what it lists changes (a rebuild of the tasks, a plan or name learnt by
 * inventory or cluster discovery), never per request and never from the upstream; changes that come in
 * a burst (a listing of a thousand clusters) make it once.
 */
import type { ClusterConfig, Config } from "../config/types.js";
import type { KnownClusters } from "../polling/clusterKinds.js";
import { nativeTargetGroups } from "../polling/nativeExport.js";

/** What /sd/native-export answers: JSON target groups, or 404 with the reason in words. */
export interface NativeTargetsAnswer {
  readonly status: 200 | 404;
  readonly contentType: string;
  readonly body: string;
  /** Target groups listed (0 for a 404). */
  readonly groups: number;
}

/** The answer while `native_export.enabled` is false: a Prometheus job pointed here says why it finds nothing. */
export const NATIVE_EXPORT_DISABLED: NativeTargetsAnswer = {
  status: 404,
  contentType: "text/plain; charset=utf-8",
  body: "404 native_export is disabled in the exporter's config (native_export.enabled: false): no cluster is listed\n",
  groups: 0,
};

/** What the answer is made of, read when it is remade. */
interface Sources {
  readonly config: () => Pick<Config, "api" | "nativeExport">;
  /** This replica's clusters (configured and discovered, of its shard). */
  readonly clusters: () => readonly Pick<ClusterConfig, "id" | "projectId" | "region">[];
  readonly known: KnownClusters;
}

/** Keeps the /sd/native-export answer current. */
export class NativeTargets {
  #answer: NativeTargetsAnswer = NATIVE_EXPORT_DISABLED;
  #pending = false;
  readonly #stop: () => void;

  constructor(private readonly sources: Sources) {
    this.#stop = sources.known.onChange(() => this.#soon());
  }

  /** The answer made at the last change. */
  answer(): NativeTargetsAnswer {
    return this.#answer;
  }

  /** Remakes the answer now (after the tasks are rebuilt: the config or the replica's clusters changed). */
  refresh(): void {
    this.#pending = false;
    const config = this.sources.config();
    if (!config.nativeExport.enabled) {
      this.#answer = NATIVE_EXPORT_DISABLED;
      return;
    }
    const groups = nativeTargetGroups(config, this.sources.clusters(), this.sources.known);
    this.#answer = {
      status: 200,
      contentType: "application/json; charset=utf-8",
      body: JSON.stringify(groups),
      groups: groups.length,
    };
  }

  /** Stops following the known clusters. */
  close(): void {
    this.#stop();
  }

  /** One remake after the current burst of changes (a listing notes every cluster in one turn). */
  #soon(): void {
    if (this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => {
      if (this.#pending) this.refresh();
    });
  }
}
