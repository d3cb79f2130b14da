import { describe, expect, it, vi } from "vitest";
import type { QueryForm } from "../../upstream/catalog.js";
import { FORM_RETRY_MS, type FormVerdict, QueryForms } from "./forms.js";

/** A server that accepts one form: a run in it is accepted, a run in the other moves. */
function server(accepts: QueryForm) {
  const sent: QueryForm[] = [];
  const run = async (form: QueryForm): Promise<{ value: QueryForm; verdict: FormVerdict }> => {
    sent.push(form);
    await new Promise((r) => setTimeout(r, 1));
    return { value: form, verdict: form === accepts ? "accepted" : "moved" };
  };
  return { sent, run };
}

const logger = () => ({ info: vi.fn(), warn: vi.fn() });

describe("QueryForms: the form is learned once per key", () => {
  it.each<[accepts: QueryForm, refusedRuns: number, learned: QueryForm]>([
    ["current", 0, "current"],
    ["2024", 1, "2024"],
  ])(
    "a server that accepts %s: %i refused run over many targets, then %s",
    async (accepts, refused, learned) => {
      const forms = new QueryForms();
      const s = server(accepts);
      const log = logger();
      // The first cycle starts every target at once.
      await Promise.all(Array.from({ length: 20 }, () => forms.withForm("default", "auto", 0, log, s.run)));
      for (let cycle = 1; cycle <= 3; cycle++) {
        await Promise.all(
          Array.from({ length: 20 }, () => forms.withForm("default", "auto", cycle * 30_000, log, s.run)),
        );
      }
      expect(s.sent.filter((f) => f !== accepts)).toHaveLength(refused);
      expect(forms.formOf("default")).toBe(learned);
      expect(log.warn).toHaveBeenCalledTimes(refused);
    },
  );

  it("keys learn apart: one key's switch does not move another", async () => {
    const forms = new QueryForms();
    await forms.withForm("a", "auto", 0, undefined, server("2024").run);
    await forms.withForm("b", "auto", 0, undefined, server("current").run);
    expect(forms.known()).toEqual(
      new Map([
        ["a", "2024"],
        ["b", "current"],
      ]),
    );
  });

  it("asks the current form again at most hourly, and follows a server that moved to it", async () => {
    const forms = new QueryForms();
    const log = logger();
    const old = server("2024");
    await forms.withForm("k", "auto", 0, log, old.run);
    await forms.withForm("k", "auto", FORM_RETRY_MS - 1, log, old.run);
    expect(old.sent).toEqual(["current", "2024"]);
    // An hour on, one run asks the current form; the server still refuses it.
    await forms.withForm("k", "auto", FORM_RETRY_MS, log, old.run);
    expect(old.sent.at(-1)).toBe("current");
    expect(forms.formOf("k")).toBe("2024");
    await forms.withForm("k", "auto", FORM_RETRY_MS + 1, log, old.run);
    expect(old.sent.at(-1)).toBe("2024");
    // Another hour on, the server follows the current reference: the key goes back.
    const moved = server("current");
    await forms.withForm("k", "auto", 2 * FORM_RETRY_MS + 2, log, moved.run);
    expect(forms.formOf("k")).toBe("current");
    expect(log.info).toHaveBeenCalledTimes(1);
  });

  it("a pinned form is sent as is and learns nothing", async () => {
    const forms = new QueryForms();
    const s = server("current");
    await forms.withForm("k", "2024", 0, undefined, s.run);
    await forms.withForm("k", "2024", 1, undefined, s.run);
    expect(s.sent).toEqual(["2024", "2024"]);
    expect(forms.known().size).toBe(0);
  });

  it("a failed run hands the turn on, and the form is learned by the next", async () => {
    const forms = new QueryForms();
    const s = server("2024");
    const failing = forms.withForm("k", "auto", 0, undefined, async () => {
      throw new Error("network");
    });
    const next = forms.withForm("k", "auto", 0, undefined, s.run);
    await expect(failing).rejects.toThrow("network");
    await expect(next).resolves.toBe("current");
    expect(forms.formOf("k")).toBe("2024");
  });
});
