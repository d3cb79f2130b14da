import { describe, expect, it } from "vitest";
import { clientCertMiddleware } from "./clientCert.js";

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
