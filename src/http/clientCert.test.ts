import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { allowedSansMiddleware, clientCertMiddleware, peerSans } from "./clientCert.js";

function call(policy: "RequireAnyClientCert" | "VerifyClientCertIfGiven", cert: object, authorized: boolean) {
  let status = 0;
  let nexted = false;
  const req = { socket: { getPeerCertificate: () => cert, authorized } };
  const res = {
    status(code: number) {
      status = code;
      return this;
    },
    type() {
      return this;
    },
    send() {
      return this;
    },
  };
  clientCertMiddleware(policy)(req as never, res as never, () => {
    nexted = true;
  });
  return nexted ? "next" : status;
}

describe("clientCertMiddleware", () => {
  it.each([
    { policy: "RequireAnyClientCert", cert: {}, authorized: false, want: 403 },
    { policy: "RequireAnyClientCert", cert: { subject: {} }, authorized: false, want: "next" },
    { policy: "VerifyClientCertIfGiven", cert: {}, authorized: false, want: "next" },
    { policy: "VerifyClientCertIfGiven", cert: { subject: {} }, authorized: false, want: 403 },
    { policy: "VerifyClientCertIfGiven", cert: { subject: {} }, authorized: true, want: "next" },
  ] as const)("$policy cert=$cert authorized=$authorized -> $want", ({ policy, cert, authorized, want }) => {
    expect(call(policy, cert, authorized)).toBe(want);
  });
});

describe("client_allowed_sans", () => {
  it("reads the values of Node's subjectaltname, whatever their kind", () => {
    expect(peerSans("DNS:prom.example, IP Address:10.0.0.1, email:a@b.example, URI:spiffe://x/y")).toEqual([
      "prom.example",
      "10.0.0.1",
      "a@b.example",
      "spiffe://x/y",
    ]);
    expect(peerSans(undefined)).toEqual([]);
  });

  it.each([
    ["DNS:prom.example", 200],
    ["DNS:other.example, IP Address:10.0.0.2", 403],
    [undefined, 403],
  ])("a certificate with %s gets %i", (subjectaltname, status) => {
    const socket = { getPeerCertificate: () => (subjectaltname === undefined ? {} : { subjectaltname }) };
    let code = 200;
    const res = {
      status: (c: number) => {
        code = c;
        return res;
      },
      type: () => res,
      send: () => res,
    };
    allowedSansMiddleware(["prom.example", "10.0.0.1"])(
      { socket } as unknown as Request,
      res as unknown as Response,
      () => undefined,
    );
    expect(code).toBe(status);
  });
});
