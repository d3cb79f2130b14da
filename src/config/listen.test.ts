import { describe, expect, it } from "vitest";
import { formatListen, ListenAddressError, parseListen } from "./listen.js";

describe("parseListen", () => {
  it.each([
    ["0.0.0.0:9474", "0.0.0.0", 9474],
    ["127.0.0.1:0", "127.0.0.1", 0],
    ["localhost:80", "localhost", 80],
    ["exporter.internal:65535", "exporter.internal", 65535],
    ["[::1]:9474", "::1", 9474],
    ["[::]:9474", "::", 9474],
  ])("%s", (text, host, port) => {
    const address = parseListen(text);
    expect(address).toEqual({ host, port });
    expect(formatListen(address)).toBe(text);
  });

  it.each([
    ["9474", "expected HOST:PORT"],
    [":9474", "not a valid IPv4 address or host name"],
    ["::1:9474", "expected HOST:PORT"],
    ["[nothost]:9474", "not a valid IPv6"],
    ["0.0.0.0:70000", "port must be from 0 to 65535"],
    ["0.0.0.0:port", "expected HOST:PORT"],
    ["999.1.1.1:80", "not a valid IPv4 address or host name"],
    ["bad_host:80", "not a valid IPv4 address or host name"],
  ])("rejects %s", (text, message) => {
    expect(() => parseListen(text)).toThrow(ListenAddressError);
    expect(() => parseListen(text)).toThrow(message);
  });
});
