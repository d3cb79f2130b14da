/**
 * Where the API key may go when the upstream names the address: a data-plane client sends the
 * cluster's credential (the API key by default) to its endpoint, and an endpoint taken from
 * Describe Cluster's `connectAddress` is the upstream's word, not the user's. So it must be
 * https on a host of the service's own domains, the shapes its documentation gives:
 * - dedicated: https://{cluster-id}.{region}.vectordb.zillizcloud.com:19530
 * - free and serverless: https://{cluster-id}.serverless.{region}.vectordb.zillizcloud.com,
 *   older ones https://{cluster-id}.serverless.{region}.cloud.zilliz.com
 * - the service in China: https://{cluster-id}.serverless.{region}.cloud.zilliz.com.cn
 * or on a host the user lists in `api.data_plane_hosts`. An endpoint the user configures for a
 * cluster (`clusters[].data_plane.endpoint`) is used as given and never checked here.
 */
import { ExporterError } from "../shared/errors.js";

/** The service's domains: a data-plane host is a name under one of them. */
export const SERVICE_DATA_PLANE_DOMAINS: readonly string[] = [
  "zillizcloud.com",
  "zilliz.com",
  "zillizcloud.cn",
  "zilliz.com.cn",
];

/**
 * One entry of `api.data_plane_hosts`: a host name or address ("proxy.internal", "10.0.0.7"),
 * or "*.<domain>" for any name under a domain; an "http://" prefix allows plaintext to it too
 * (a local simulator, a proxy on the same node), which no entry without it does.
 */
export const DATA_PLANE_HOST_ENTRY = /^(?:https?:\/\/)?(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/** A data-plane address from the upstream that the key may not go to: its cluster fails, no request is made. */
export class ForeignDataPlaneError extends ExporterError {
  override readonly name = "ForeignDataPlaneError";
  readonly code = "foreign_endpoint";
  constructor(
    readonly clusterId: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `cluster ${clusterId}: data-plane address from Describe Cluster refused: ${detail}; ` +
        "list its host in api.data_plane_hosts, or set clusters[].data_plane.endpoint",
      options,
    );
  }
}

/** One parsed entry: the host (or domain, for a wildcard) and whether plaintext is allowed. */
interface HostRule {
  readonly host: string;
  readonly wildcard: boolean;
  readonly plaintext: boolean;
}

function ruleOf(entry: string): HostRule {
  const lower = entry.trim().toLowerCase();
  const plaintext = lower.startsWith("http://");
  const host = lower.replace(/^https?:\/\//, "");
  return host.startsWith("*.")
    ? { host: host.slice(2), wildcard: true, plaintext }
    : { host, wildcard: false, plaintext };
}

function under(host: string, domain: string): boolean {
  return host.endsWith(`.${domain}`);
}

/** The origin of `url` for a message, cut short: the upstream's text, quoted only in part. */
function shown(url: URL): string {
  const origin = `${url.protocol}//${url.host}`;
  return origin.length > 100 ? `${origin.slice(0, 100)}...` : origin;
}

/**
 * The data-plane address `address` that Describe Cluster gave for `clusterId`, when the key may
 * go there; throws ForeignDataPlaneError otherwise (not a URL, credentials in it, not https on a
 * service host, or a host no entry of `allowed` lists with the scheme it uses).
 */
export function checkedDataPlaneAddress(
  clusterId: string,
  address: string,
  allowed: readonly string[],
): string {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch (error) {
    throw new ForeignDataPlaneError(clusterId, "not a URL", { cause: error });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ForeignDataPlaneError(clusterId, `scheme ${url.protocol} is not https`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new ForeignDataPlaneError(clusterId, "the address carries credentials");
  }
  const host = url.hostname.toLowerCase();
  const https = url.protocol === "https:";
  if (https && SERVICE_DATA_PLANE_DOMAINS.some((domain) => under(host, domain))) return address.trim();
  for (const rule of allowed.map(ruleOf)) {
    const matches = rule.wildcard ? under(host, rule.host) : host === rule.host;
    if (matches && (https || rule.plaintext)) return address.trim();
  }
  const why = https
    ? "not a host of the service's domains"
    : "plaintext http to a host not listed with http://";
  throw new ForeignDataPlaneError(clusterId, `${shown(url)}: ${why}`);
}
