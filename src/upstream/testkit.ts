/**
 * Test doubles for the client: a manual clock whose sleep advances time, and an observer that
 * records events. Used by tests only; production code never imports this module.
 */
import { type Interceptable, MockAgent } from "undici";
import { afterEach, beforeEach } from "vitest";
import { type CloudClient, type CloudClientOptions, createCloudClient } from "./client.js";
import { createDataPlaneClient, type DataPlaneClient } from "./dataPlane.js";
import { CloudError } from "./errors.js";
import type { IndexDescription } from "./indexes.js";
import type { SleepFn } from "./sleep.js";
import type {
  BackupPolicy,
  CallOutcome,
  ClientObserver,
  ClusterDescription,
  EndpointTemplate,
  ProjectV2,
  SparkJob,
} from "./types.js";

/** A clock that only moves when something sleeps on it (or `advance` is called). */
interface ManualClock {
  readonly now: () => number;
  readonly sleep: SleepFn;
  /** Every sleep requested, in order, in milliseconds. */
  readonly sleeps: number[];
  advance(ms: number): void;
}

/** Creates a ManualClock starting at `startMs`. Sleeps resolve at once, after advancing time. */
function manualClock(startMs = 1_700_000_000_000): ManualClock {
  let t = startMs;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleeps,
    advance(ms) {
      t += ms;
    },
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(signal.reason);
      sleeps.push(ms);
      t += ms;
      return Promise.resolve();
    },
  };
}

/** One observed event. */
type ObservedEvent =
  | { readonly kind: "attempt"; readonly endpoint: EndpointTemplate; readonly outcome: CallOutcome }
  | { readonly kind: "retry"; readonly endpoint: EndpointTemplate; readonly delayMs: number }
  | { readonly kind: "rateLimited"; readonly endpoint: EndpointTemplate }
  | { readonly kind: "schemaError"; readonly endpoint: EndpointTemplate };

/** An observer that appends every event to `events`. */
interface RecordingObserver extends ClientObserver {
  readonly events: ObservedEvent[];
}

/** Creates a RecordingObserver (durations are not recorded: tests must not depend on time). */
function recordingObserver(): RecordingObserver {
  const events: ObservedEvent[] = [];
  return {
    events,
    attempt: (endpoint, outcome) => events.push({ kind: "attempt", endpoint, outcome }),
    retry: (endpoint, delayMs) => events.push({ kind: "retry", endpoint, delayMs }),
    rateLimited: (endpoint) => events.push({ kind: "rateLimited", endpoint }),
    schemaError: (endpoint) => events.push({ kind: "schemaError", endpoint }),
  };
}

/** Upstream addresses used by the HTTP-level tests (answered by a MockAgent, never resolved). */
export const TEST_BASE_URL = "https://api.vdbcloud.test";
export const TEST_CONTROLLER_URL = "https://controller.api.{region}.vdbcloud.test";
export const TEST_API_KEY = "sk-test-5ecret-0123456789abcdef";

/**
 * What a Spark job's normalized form holds for every field a running job's answer leaves out:
 * unknown, never 0 or "" (the mapping then emits no series for them).
 */
export const SPARK_JOB_UNSET = {
  clusterId: null,
  submittedAtMs: null,
  startedAtMs: null,
  finishedAtMs: null,
  durationSeconds: null,
  failureReason: null,
  precheck: null,
} as const satisfies Partial<SparkJob>;

/**
 * A List Spark Jobs item as the reference documents it (data.items[]): the client reads it, and
 * the simulator's listing must show exactly these fields.
 */
export const DOCUMENTED_SPARK_LIST_ITEM = {
  jobId: "job-0a1b2c",
  projectId: "proj-0123",
  type: "BACKFILL",
  description: "nightly backfill",
  status: "RUNNING",
  regionId: "aws-us-west-2",
  clusterId: "in01-abc",
  createdAt: "2025-06-01T10:00:00Z",
  startedAt: "2025-06-01T10:00:45Z",
  finishedAt: null,
  durationSeconds: 120,
};

/**
 * A dedicated cluster's backup policy as the client returns it: enabled, Monday, Wednesday and
 * Friday, kept 14 days, one cross-region copy. What the HTTP test reads off the wire and what
 * the mapping tests vary from.
 */
export const SAMPLE_BACKUP_POLICY: BackupPolicy = {
  clusterId: "in01-a",
  status: "ENABLED",
  frequency: "1,3,5",
  startTime: "02:00-04:00",
  retentionDays: 14,
  crossRegionCopies: 1,
};

/** A List Projects V2 project holding `regionIds`, named after its ID (Enterprise, SaaS). */
export function projectV2(projectId: string, regionIds: readonly string[] = []): ProjectV2 {
  return {
    projectId,
    projectName: projectId,
    instanceCount: null,
    regionIds,
    plan: "Enterprise",
    orgType: "SAAS",
  };
}

const created: Array<CloudClient | DataPlaneClient> = [];
let upstream: MockAgent | undefined;

/**
 * A fresh undici MockAgent that refuses any request it was not told to answer (no network at
 * all). Clients made by testClient() afterwards send through it unless given another dispatcher;
 * closeTestClients() closes it.
 */
export function mockUpstream(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  upstream = agent;
  return agent;
}

/** Closes every client testClient() made, and the current mockUpstream() (call it in afterEach). */
export async function closeTestClients(): Promise<void> {
  await Promise.all(created.splice(0).map((c) => c.close()));
  const agent = upstream;
  upstream = undefined;
  await agent?.close();
}

/** The part of the current test's MockAgent the HTTP-level tests use. */
interface UpstreamDouble {
  /** The interceptable pool for one origin (TEST_BASE_URL, a controller URL). */
  get(origin: string): Interceptable;
  assertNoPendingInterceptors(): void;
}

/**
 * Gives every test of the calling file (or describe block) a fresh mockUpstream() and closes it,
 * with every testClient(), afterwards. The returned handle always speaks for the current test's
 * agent, so a file can hold it in one constant.
 */
export function useMockUpstream(): UpstreamDouble {
  let agent: MockAgent | undefined;
  const current = (): MockAgent => {
    if (agent === undefined) throw new Error("useMockUpstream: no test is running");
    return agent;
  };
  beforeEach(() => {
    agent = mockUpstream();
  });
  afterEach(async () => {
    agent = undefined;
    await closeTestClients();
  });
  return {
    get: (origin) => current().get(origin),
    assertNoPendingInterceptors: () => current().assertNoPendingInterceptors(),
  };
}

/** The headers every request of testClient() carries (match them to prove the key is sent). */
export const TEST_AUTH_HEADERS = { authorization: `Bearer ${TEST_API_KEY}` } as const;

/** A client wired to a manual clock and a recording observer, with fast, deterministic retries. */
export function testClient(overrides: Partial<CloudClientOptions> = {}): {
  readonly client: CloudClient;
  readonly clock: ManualClock;
  readonly observer: RecordingObserver;
} {
  const clock = manualClock();
  const observer = recordingObserver();
  const client = createCloudClient({
    baseUrl: TEST_BASE_URL,
    controllerUrl: TEST_CONTROLLER_URL,
    apiKey: TEST_API_KEY,
    requestTimeoutMs: 5_000,
    rateLimit: 20,
    maxRetries: 3,
    maxResponseBytes: 1_000_000,
    maxInFlight: 4,
    observer,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...(upstream === undefined ? {} : { dispatcher: upstream }),
    ...overrides,
  });
  created.push(client);
  return { client, clock, observer };
}

/** The success sample of the reference's Describe Index page, verbatim (`data` a one-item array). */
export const REFERENCE_DESCRIBE_INDEX_SAMPLE = {
  code: 0,
  data: [
    {
      failReason: "",
      fieldName: "vector",
      indexName: "vector",
      indexState: "Finished",
      indexType: "",
      indexedRows: 0,
      metricType: "COSINE",
      pendingRows: 0,
      totalRows: 0,
    },
  ],
} as const;

/**
 * docs/design.md section 7: the sample item of Describe Index, with the fields the exporter does
 * not read.
 */
export const SAMPLE_INDEX_ITEM = {
  indexName: "embedding_idx",
  fieldName: "embedding",
  indexType: "AUTOINDEX",
  metricType: "COSINE",
  "mmap.enabled": false,
  "indexoffsetcache.enabled": false,
  warmup: "sync",
  totalRows: 10000,
  pendingRows: 0,
  indexedRows: 10000,
  indexState: "Finished",
  failReason: "",
  minIndexVersion: 5,
  maxIndexVersion: 6,
  indexParams: [{ key: "index_type", value: "AUTOINDEX" }],
} as const;

/** SAMPLE_INDEX_ITEM as Describe Index reads it. */
export const SAMPLE_INDEX_DESCRIPTION: IndexDescription = {
  indexName: "embedding_idx",
  fieldName: "embedding",
  indexType: "AUTOINDEX",
  metricType: "COSINE",
  state: "Finished",
  totalRows: 10000,
  indexedRows: 10000,
  pendingRows: 0,
  failReason: "",
};

/** A cluster's data-plane endpoint, for testDataPlaneClient(). */
export const TEST_DATA_PLANE_ENDPOINT = "https://in01-abc.aws-us-west-2.vectordb.example.com:19530";
/** A `username:password` data-plane token: its password must never show, on its own either. */
export const TEST_DATA_PLANE_TOKEN = "db_admin:s3cret-Passw0rd";

/**
 * A data-plane client of TEST_DATA_PLANE_ENDPOINT with TEST_DATA_PLANE_TOKEN, answered by the
 * current mockUpstream() (no retries, a budget no test reaches); closeTestClients() closes it.
 */
export function testDataPlaneClient(): DataPlaneClient {
  const client = createDataPlaneClient({
    endpoint: TEST_DATA_PLANE_ENDPOINT,
    token: TEST_DATA_PLANE_TOKEN,
    rateLimit: 100,
    requestTimeoutMs: 2000,
    maxRetries: 0,
    maxResponseBytes: 1 << 20,
    maxInFlight: 4,
    ...(upstream === undefined ? {} : { dispatcher: upstream }),
  });
  created.push(client);
  return client;
}

/** The CloudError `p` rejects with; fails when it resolves or rejects with anything else. */
export async function failure(p: Promise<unknown>): Promise<CloudError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof CloudError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

/**
 * A cluster description as the client returns it when the answer carries only the ID: every
 * other field null. `fields` sets the ones a test cares about.
 */
export function blankCluster(
  clusterId: string,
  fields: Partial<ClusterDescription> = {},
): ClusterDescription {
  return {
    clusterId,
    clusterName: null,
    projectId: null,
    regionId: null,
    plan: null,
    cuType: null,
    cuSize: null,
    status: null,
    connectAddress: null,
    snapshotNumber: null,
    createProgress: null,
    replica: null,
    autoscalingCuMin: null,
    autoscalingCuMax: null,
    autoscalingReplicaMin: null,
    autoscalingReplicaMax: null,
    deploymentOption: null,
    globalCluster: null,
    ...fields,
  };
}

/**
 * Answers one GET of `path` on the base URL, whose query is `args` as strings and which carries
 * the test key, with `{code: 0, data}`; returns what `read` makes of it with a fresh testClient(),
 * once that GET was made as asked. The current test's mockUpstream() answers it.
 */
export async function readOneGet<A extends Readonly<Record<string, string | number>>, T>(
  path: string,
  args: A,
  data: unknown,
  read: (client: CloudClient, args: A) => Promise<T>,
): Promise<T> {
  if (upstream === undefined) throw new Error("readOneGet: no mockUpstream() is current");
  const query = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)]));
  upstream
    .get(TEST_BASE_URL)
    .intercept({ method: "GET", path, query, headers: TEST_AUTH_HEADERS })
    .reply(200, { code: 0, data });
  const result = await read(testClient().client, args);
  upstream.assertNoPendingInterceptors();
  return result;
}
