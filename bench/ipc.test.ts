import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BenchError } from "./errors.js";
import { type Channel, RpcClient, serveRpc } from "./ipc.js";

/** Two connected in-memory channels, delivering asynchronously as IPC does. */
function pair(): { parent: Channel; child: Channel } {
  const parent = new EventEmitter() as Channel;
  const child = new EventEmitter() as Channel;
  parent.send = (m) => {
    setImmediate(() => child.emit("message", m));
    return true;
  };
  child.send = (m) => {
    setImmediate(() => parent.emit("message", m));
    return true;
  };
  return { parent, child };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("RpcClient with serveRpc", () => {
  it("returns each handler's result to its own caller", async () => {
    const { parent, child } = pair();
    serveRpc({ double: (n) => (n as number) * 2, later: async () => "done" }, child);
    const rpc = new RpcClient(parent, "child");
    await expect(
      Promise.all([rpc.call("double", 21), rpc.call("later"), rpc.call("double", 1)]),
    ).resolves.toEqual([42, "done", 2]);
  });

  it.each([
    { cmd: "nope", message: "child: unknown command nope" },
    { cmd: "boom", message: "child: broken" },
  ])("rejects with ipc_failed for $cmd", async ({ cmd, message }) => {
    const { parent, child } = pair();
    serveRpc(
      {
        boom: () => {
          throw new Error("broken");
        },
      },
      child,
    );
    const err = await new RpcClient(parent, "child").call(cmd).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BenchError);
    expect(err).toMatchObject({ code: "ipc_failed", message });
  });

  it("rejects pending calls with child_failed when the child exits", async () => {
    const { parent } = pair();
    const call = new RpcClient(parent, "sim").call("stats");
    parent.emit("exit", 1);
    await expect(call).rejects.toMatchObject({ code: "child_failed" });
  });

  it("rejects with child_timeout when nobody answers", async () => {
    vi.useFakeTimers();
    const { parent } = pair();
    const call = new RpcClient(parent, "sim").call("stats", undefined, 500);
    const settled = expect(call).rejects.toMatchObject({ code: "child_timeout" });
    await vi.advanceTimersByTimeAsync(500);
    await settled;
  });

  it("rejects when the channel reports a send failure", async () => {
    const closed = new EventEmitter() as Channel;
    closed.send = (_m, callback) => {
      setImmediate(() => callback?.(new Error("channel closed")));
      return false;
    };
    await expect(new RpcClient(closed, "sim").call("stats")).rejects.toMatchObject({ code: "child_failed" });
  });
});
