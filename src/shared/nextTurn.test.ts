import { describe, expect, it } from "vitest";
import { nextTurn } from "./nextTurn.js";

describe("nextTurn", () => {
  it("lets work already due on the event loop run first", async () => {
    const order: string[] = [];
    const due = new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push("due");
        resolve();
      }),
    );
    await nextTurn();
    order.push("after");
    await due;
    expect(order).toEqual(["due", "after"]);
  });
});
