/**
 * The tests' network guard: no test reaches a real host. A socket may connect only to loopback
 * (the simulator, test servers), a Unix socket, or a reserved test name (RFC 6761: .test,
 * .invalid, .localhost, .example), which never resolves to a real service. Anything else fails
 * at once with ENETUNREACH, naming the host, instead of leaving the machine. HTTP-level tests
 * answer through undici's MockAgent, which refuses unmatched requests by itself.
 */
import net from "node:net";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost", "::ffff:127.0.0.1"]);
const RESERVED = /\.(test|invalid|localhost|example)\.?$/i;

/** Whether a test may open a socket to `host` (undefined: Node's default, localhost). */
export function allowedHost(host: string | undefined): boolean {
  if (host === undefined || host === "") return true;
  return LOOPBACK.has(host) || host.startsWith("127.") || RESERVED.test(host);
}

/** The host a Socket#connect call aims at, from any of its argument forms. */
export function connectHost(args: readonly unknown[]): string | undefined {
  const first = args[0];
  // net.connect() passes its normalized arguments as one array.
  const options = Array.isArray(first) ? (first[0] as unknown) : first;
  if (typeof options === "object" && options !== null) {
    const o = options as { path?: unknown; host?: unknown };
    if (typeof o.path === "string") return "localhost";
    return typeof o.host === "string" ? o.host : undefined;
  }
  return typeof args[1] === "string" ? args[1] : undefined;
}

type Connect = (this: net.Socket, ...args: unknown[]) => net.Socket;
let installed = false;

/** Makes every socket of this process refuse hosts allowedHost() rejects; idempotent. */
export function installNetGuard(): void {
  if (installed) return;
  installed = true;
  const proto = net.Socket.prototype as unknown as { connect: Connect };
  const original = proto.connect;
  proto.connect = function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
    const host = connectHost(args);
    if (allowedHost(host)) return original.apply(this, args);
    const error = Object.assign(new Error(`tests may not connect to ${host}: no network in tests`), {
      code: "ENETUNREACH",
    });
    process.nextTick(() => this.destroy(error));
    return this;
  };
}
