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
