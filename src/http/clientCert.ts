import type { TLSSocket } from "node:tls";
import type { NextFunction, Request, Response } from "express";

/**
 * The exporter-toolkit client certificate policies that Node's TLS layer cannot enforce by
 * itself (it can only require AND verify, or request without checking).
 */
export type SoftClientCertPolicy = "RequireAnyClientCert" | "VerifyClientCertIfGiven";

/**
 * Express middleware enforcing a soft client certificate policy on a TLS socket:
 * RequireAnyClientCert: some certificate must be presented (not verified against a CA);
 * VerifyClientCertIfGiven: a presented certificate must verify against the client CA.
 */
export function clientCertMiddleware(policy: SoftClientCertPolicy) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const socket = req.socket as TLSSocket;
    const presented =
      typeof socket.getPeerCertificate === "function" && Object.keys(socket.getPeerCertificate()).length > 0;
    const ok = policy === "RequireAnyClientCert" ? presented : !presented || socket.authorized === true;
    if (ok) {
      next();
      return;
    }
    res.status(403).type("text/plain").send("403 client certificate required or not trusted\n");
  };
}

/**
 * The SANs of a peer certificate as Node spells them (`DNS:a, IP Address:10.0.0.1,
 * email:x@y, URI:spiffe://z`), values only.
 */
export function peerSans(subjectaltname: string | undefined): string[] {
  if (!subjectaltname) return [];
  return subjectaltname.split(", ").flatMap((entry) => {
    const i = entry.indexOf(":");
    return i < 0 ? [] : [entry.slice(i + 1)];
  });
}

/**
 * Express middleware for the toolkit's `client_allowed_sans`: the client certificate must carry
 * one of `allowed` exactly (DNS name, IP address, e-mail or URI), else 403. The config check
 * only allows it with a policy that requires a certificate.
 */
export function allowedSansMiddleware(allowed: readonly string[]) {
  const set = new Set(allowed);
  return (req: Request, res: Response, next: NextFunction): void => {
    const socket = req.socket as TLSSocket;
    const cert = typeof socket.getPeerCertificate === "function" ? socket.getPeerCertificate() : undefined;
    if (peerSans(cert?.subjectaltname).some((san) => set.has(san))) {
      next();
      return;
    }
    res.status(403).type("text/plain").send("403 client certificate not allowed\n");
  };
}
