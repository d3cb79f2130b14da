/**
 * The `HOST:PORT` listen address of the HTTP server (config `server.listen` and `--listen`).
 */
import { isIPv4, isIPv6 } from "node:net";
import { ExporterError } from "../shared/errors.js";

/** A parsed listen address. IPv6 hosts are returned without brackets ("::1"). */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/** Thrown for a listen address that cannot be used; the message says what is expected. */
export class ListenAddressError extends ExporterError {
  readonly code = "listen_invalid";
  constructor(message: string) {
    super(message);
    this.name = "ListenAddressError";
  }
}

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const EXPECTED = "expected HOST:PORT such as 0.0.0.0:9474, 127.0.0.1:9474 or [::1]:9474";

/**
 * Parses `HOST:PORT`, where HOST is an IPv4 address, a host name, or an IPv6 address in
 * brackets, and PORT is 0..65535 (0 asks the OS for a free port, which tests use).
 * @throws ListenAddressError
 */
export function parseListen(text: string): ListenAddress {
  const bracketed = /^\[([^\]]*)\]:(\d{1,5})$/.exec(text);
  const plain = /^([^:[\]]*):(\d{1,5})$/.exec(text);
  const match = bracketed ?? plain;
  if (!match) throw new ListenAddressError(EXPECTED);
  const host = match[1] ?? "";
  const port = Number(match[2]);
  if (bracketed ? !isIPv6(host) : !(isIPv4(host) || (HOSTNAME.test(host) && !/^[\d.]+$/.test(host)))) {
    throw new ListenAddressError(
      `host is not a valid ${bracketed ? "IPv6 address" : "IPv4 address or host name"}; ${EXPECTED}`,
    );
  }
  if (port > 65535) throw new ListenAddressError(`port must be from 0 to 65535; ${EXPECTED}`);
  return { host, port };
}

/** Formats an address back to `HOST:PORT`, bracketing IPv6 hosts. */
export function formatListen(address: ListenAddress): string {
  return isIPv6(address.host) ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}
