/**
 * Request/reply over a child process's IPC channel: the harness drives the simulator, the
 * exporter's probe and the baseline servers, each in its own process, through named commands.
 */
import type { EventEmitter } from "node:events";
import { BenchError } from "./errors.js";

interface RpcRequest {
  readonly rpc: number;
  readonly cmd: string;
  readonly args?: unknown;
}

interface RpcReply {
  readonly rpc: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

/** What both ends need of a channel: a ChildProcess on one side, `process` on the other. */
export interface Channel extends EventEmitter {
  send?(message: unknown, callback?: (error: Error | null) => void): boolean;
}

/** A command handler; its result (or rejection message) is sent back to the caller. */
export type RpcHandlers = Readonly<Record<string, (args: unknown) => unknown>>;

function isRequest(m: unknown): m is RpcRequest {
  return typeof m === "object" && m !== null && typeof (m as RpcRequest).rpc === "number" && "cmd" in m;
}

function isReply(m: unknown): m is RpcReply {
  return typeof m === "object" && m !== null && typeof (m as RpcReply).rpc === "number" && "ok" in m;
}

/**
 * Child side: answers every request arriving on `channel` with its handler's result. An
 * unknown command or a throwing handler answers `ok: false` with the message; it never throws.
 */
export function serveRpc(handlers: RpcHandlers, channel: Channel = process): void {
  channel.on("message", (message: unknown) => {
    if (!isRequest(message)) return;
    const reply = (r: Omit<RpcReply, "rpc">) => channel.send?.({ rpc: message.rpc, ...r });
    const handler = handlers[message.cmd];
    if (!handler) {
      reply({ ok: false, error: `unknown command ${message.cmd}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message.args))
      .then(
        (result) => reply({ ok: true, result }),
        (err: unknown) => reply({ ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
  });
}

/**
 * Parent side. `call` resolves with the handler's result, or rejects with a BenchError:
 * `ipc_failed` when the handler failed, `child_timeout` after `timeoutMs`, `child_failed` when
 * the child exits first.
 */
export class RpcClient {
  private seq = 0;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void; timer: NodeJS.Timeout }
  >();

  constructor(
    private readonly channel: Channel,
    private readonly name: string,
  ) {
    channel.on("message", (message: unknown) => {
      if (!isReply(message)) return;
      const p = this.pending.get(message.rpc);
      if (!p) return;
      this.pending.delete(message.rpc);
      clearTimeout(p.timer);
      if (message.ok) p.resolve(message.result);
      else p.reject(new BenchError("ipc_failed", `${this.name}: ${message.error ?? "failed"}`));
    });
    channel.on("exit", (code: unknown) => {
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new BenchError("child_failed", `${this.name} exited (${String(code)}) during a call`));
        this.pending.delete(id);
      }
    });
  }

  call<T>(cmd: string, args?: unknown, timeoutMs = 60_000): Promise<T> {
    const rpc = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(rpc);
        reject(new BenchError("child_timeout", `${this.name}: ${cmd} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(rpc, { resolve: resolve as (v: unknown) => void, reject, timer });
      const fail = (err: unknown) => {
        clearTimeout(timer);
        this.pending.delete(rpc);
        reject(
          new BenchError("child_failed", `${this.name}: cannot send ${cmd} (channel closed)`, { cause: err }),
        );
      };
      // `false` from send() only means "queued" (large messages); the callback reports failure.
      try {
        if (!this.channel.send) fail(undefined);
        else this.channel.send({ rpc, cmd, args } satisfies RpcRequest, (err) => err && fail(err));
      } catch (err) {
        fail(err);
      }
    });
  }
}
