/**
 * The landing page as a browser renders it: Debian's chromium, driven by playwright-core (which
 * brings no browser of its own), loads the page of a running app (HTTP on port 0) at 1,000
 * targets and follows its links and form as a user would. Skipped with a visible message where
 * chromium is missing; fails under CI=true instead.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/http/app.js";
import { landingAtScale } from "../src/http/landingTestkit.js";
import { toolOrSkip, toolPath } from "./helpers/tools.js";

const browserTool = toolOrSkip("chromium");
// 100 clusters, each a target of 8 collectors and 2 collection scopes, and the account-wide ones.
const INFO = landingAtScale({ clusters: 100, scopesPerCluster: 2, failEvery: 23 });
const FAILING = INFO.targets.filter((t) => t.up === false);

/** The cells of each body row of the table with `id`, as the browser shows them. */
function rows(page: Page, id: string): Promise<string[][]> {
  return page
    .locator(`#${id} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())),
    );
}

describe.skipIf(browserTool.skip)("the landing page in a headless browser, at 1,000 targets", () => {
  let server: Server;
  let url: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = createApp({
      metrics: () => Promise.reject(new Error("not used")),
      landing: () => INFO,
      ready: () => true,
      reload: async () => ({ ok: true, problems: [] }),
      nativeTargets: () => {
        throw new Error("not used");
      },
    }).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath: toolPath(browserTool) });
    page = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  it("shows the summary first, the failing targets next, then the table", async () => {
    expect(INFO.targets.length).toBeGreaterThanOrEqual(1000);
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect((await res?.body())?.length).toBeLessThan(200 * 1024);
    expect(await page.locator("h2").allTextContents()).toEqual([
      "Collectors",
      `Failing targets (${FAILING.length})`,
      `Targets (${INFO.targets.length})`,
    ]);
    // Laid out in that order, top to bottom.
    const tops = await Promise.all(
      ["#collectors", "#failing-targets", "#target-table"].map(
        async (sel) => (await page.locator(sel).boundingBox())?.y ?? Number.NaN,
      ),
    );
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    const summary = await rows(page, "collectors");
    expect(summary.at(-1)?.slice(0, 3)).toEqual([
      "all collectors",
      String(INFO.targets.length),
      String(INFO.targets.filter((t) => t.up).length),
    ]);
    const failing = await rows(page, "failing-targets");
    expect(failing).toHaveLength(Math.min(20, FAILING.length));
    for (const cells of failing) {
      expect(cells[2]).toBe("failing");
      expect(cells[6]).toMatch(/^(timeout|server_error): /);
    }
  });

  it("follows a summary count to the targets it counts", async () => {
    await page.goto(url);
    const link = page
      .locator("#collectors tr", { hasText: "cluster_metrics" })
      .locator("td")
      .nth(3)
      .locator("a");
    const expected = Number(await link.textContent());
    expect(expected).toBeGreaterThan(0);
    await Promise.all([page.waitForURL(/state=failing/), link.click()]);
    expect(new URL(page.url()).search).toBe("?collector=cluster_metrics&state=failing");
    const shown = await rows(page, "target-table");
    expect(shown).toHaveLength(expected);
    expect(shown.every((cells) => cells[0] === "cluster_metrics" && cells[2] === "failing")).toBe(true);
  });

  it("filters with the form and pages with its links", async () => {
    await page.goto(url);
    await page.selectOption('select[name="collector"]', "backups");
    await page.selectOption('select[name="state"]', "not_permitted");
    await Promise.all([page.waitForURL(/state=not_permitted/), page.click('button[type="submit"]')]);
    const permitted = INFO.targets.filter((t) => t.collector === "backups" && t.up && t.notPermitted);
    const shown = await rows(page, "target-table");
    expect(shown).toHaveLength(permitted.length);
    expect(shown.every((cells) => cells[6]?.startsWith("not permitted: credential team-b"))).toBe(true);

    await page.goto(`${url}?q=customer_embeddings`);
    await expect(page.locator(".pager").first().textContent()).resolves.toMatch(/^Rows 1–100 of 200 /);
    await Promise.all([page.waitForURL(/page=2/), page.locator(".pager").first().getByText("next").click()]);
    await expect(page.locator(".pager").first().textContent()).resolves.toMatch(/^Rows 101–200 of 200 /);
    expect(
      (await rows(page, "target-table")).every((cells) => cells[1]?.includes("customer_embeddings")),
    ).toBe(true);
  });
});
