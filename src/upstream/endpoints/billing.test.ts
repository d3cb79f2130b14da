import { describe, expect, it } from "vitest";
import { failure, TEST_AUTH_HEADERS, TEST_BASE_URL, testClient, useMockUpstream } from "../testkit.js";
import { invoicesDataSchema, normalizeInvoices, normalizeUsage, usageDataSchema } from "./billing.js";

const upstream = useMockUpstream();

const ITEM = {
  costType: "compute",
  properties: {
    projectId: "proj-1",
    regionId: "aws-us-west-2",
    cuType: "Performance-optimized",
    plan: "Enterprise",
    clusterId: "in01-a",
  },
  quantity: 24,
  unit: "CU-hour",
  listPrice: { unitPrice: "0.159" },
  price: { unitPrice: "0.159" },
  amount: 381.6,
};

describe("Query Daily Usage over HTTP", () => {
  it("POSTs {start, end, pageSize, currentPage} with the key, and keeps amounts as decimal text", async () => {
    let body: unknown;
    upstream
      .get(TEST_BASE_URL)
      .intercept({
        method: "POST",
        path: "/v2/usage/query",
        headers: TEST_AUTH_HEADERS,
        body: (b) => {
          body = JSON.parse(b);
          return true;
        },
      })
      .reply(200, {
        code: 0,
        data: {
          results: [
            {
              intervalStart: "2026-03-14T00:00:00Z",
              intervalEnd: "2026-03-15T00:00:00Z",
              total: 381.6,
              currency: "USD",
              items: [ITEM],
            },
          ],
          currentPage: 1,
          pageSize: 100,
          total: 1,
        },
      });
    const { client } = testClient();
    const page = await client.queryDailyUsage({
      start: "2026-03-14",
      end: "2026-03-15",
      pageSize: 100,
      currentPage: 1,
    });
    expect(body).toEqual({ start: "2026-03-14", end: "2026-03-15", pageSize: 100, currentPage: 1 });
    expect(page).toStrictEqual({
      total: 1,
      currentPage: 1,
      pageSize: 100,
      listed: 1,
      days: [
        {
          intervalStartMs: Date.parse("2026-03-14T00:00:00Z"),
          currency: "USD",
          items: [
            {
              costType: "compute",
              clusterId: "in01-a",
              projectId: "proj-1",
              regionId: "aws-us-west-2",
              quantity: "24",
              unit: "CU-hour",
              amount: "381.6",
            },
          ],
        },
      ],
    });
  });

  it("a key without the billing role is an auth_error naming the endpoint", async () => {
    upstream
      .get(TEST_BASE_URL)
      .intercept({ method: "POST", path: "/v2/usage/query" })
      .reply(403, { code: 80101, message: "permission denied" });
    const { client } = testClient({ maxRetries: 0 });
    const err = await failure(
      client.queryDailyUsage({ start: "2026-03-14", end: "2026-03-15", pageSize: 100, currentPage: 1 }),
    );
    expect(err.code).toBe("auth_error");
    expect(err.endpoint).toBe("POST /v2/usage/query");
  });
});

describe("normalizeUsage variants", () => {
  it.each([
    {
      name: "amounts and quantities as decimal strings, paging as strings",
      data: {
        results: [
          {
            intervalStart: "2026-03-01",
            currency: "USD",
            items: [{ ...ITEM, amount: "12.30", quantity: "1.5" }],
          },
        ],
        currentPage: "3",
        pageSize: "100",
        total: "201",
      },
      item: { amount: "12.30", quantity: "1.5" },
      paging: { total: 201, currentPage: 3, pageSize: 100, listed: 1 },
    },
    {
      name: "an organization-level item without properties: cluster_id empty",
      data: {
        results: [
          {
            intervalStart: 1772323200000,
            currency: "USD",
            items: [{ costType: "migration_cross_region", quantity: 3, unit: "GB", amount: 5 }],
          },
        ],
      },
      item: { clusterId: "", projectId: "", regionId: "", amount: "5" },
      // Paging the answer left out reads as null: the pager tells "page 3" from "not said".
      paging: { total: null, currentPage: null, pageSize: null, listed: 1 },
    },
    {
      name: "an unreadable amount and a missing unit read as null, the rest kept",
      data: {
        results: [
          {
            intervalStart: "2026-03-01T00:00:00Z",
            currency: null,
            items: [{ ...ITEM, amount: "n/a", unit: undefined }],
          },
        ],
        total: 1,
      },
      item: { amount: null, unit: null, clusterId: "in01-a" },
      paging: { total: 1, currentPage: null, pageSize: null, listed: 1 },
    },
  ])("reads $name", ({ data, item, paging }) => {
    const page = normalizeUsage(usageDataSchema.parse(data));
    expect(page).toMatchObject(paging);
    expect(page.days[0]?.items[0]).toMatchObject(item);
    expect(page.days[0]?.intervalStartMs).toBe(Date.parse("2026-03-01T00:00:00Z"));
  });

  it("reads an answer without results as an empty page", () => {
    expect(normalizeUsage(usageDataSchema.parse({ total: 0 }))).toMatchObject({
      total: 0,
      listed: 0,
      days: [],
    });
  });

  it("rejects a day without its start", () => {
    expect(usageDataSchema.safeParse({ results: [{ items: [] }] }).success).toBe(false);
  });
});

describe("normalizeInvoices variants", () => {
  const INVOICE = {
    id: "inv-1",
    orgId: "org-1",
    periodStart: "2026-02-01T00:00:00Z",
    periodEnd: "2026-03-01T00:00:00Z",
    invoiceDate: "2026-03-01T00:00:00Z",
    dueDate: "2026-03-15T00:00:00Z",
    currency: "USD",
    status: "Overdue",
    total: 123456,
    amountDue: "1234.56",
  };
  it("reads amounts as numbers or decimal text, dates as timestamps, the status as sent", () => {
    const page = normalizeInvoices(
      invoicesDataSchema.parse({ count: 1, currentPage: 1, pageSize: 100, invoices: [INVOICE] }),
    );
    expect(page).toStrictEqual({
      total: 1,
      currentPage: 1,
      pageSize: 100,
      listed: 1,
      invoices: [
        {
          id: "inv-1",
          status: "Overdue",
          currency: "USD",
          periodStartMs: Date.parse("2026-02-01T00:00:00Z"),
          dueDateMs: Date.parse("2026-03-15T00:00:00Z"),
          invoiceDateMs: Date.parse("2026-03-01T00:00:00Z"),
          total: "123456",
          amountDue: "1234.56",
        },
      ],
    });
  });

  it("reads missing fields as null or empty, and an id sent as a number", () => {
    const page = normalizeInvoices(invoicesDataSchema.parse({ invoices: [{ id: 7 }] }));
    expect(page.total).toBeNull();
    expect(page.invoices[0]).toStrictEqual({
      id: "7",
      status: "",
      currency: "",
      periodStartMs: null,
      dueDateMs: null,
      invoiceDateMs: null,
      total: null,
      amountDue: null,
    });
  });
});
