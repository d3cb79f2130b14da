import { describe, expect, it } from "vitest";
import { ExporterError } from "../shared/errors.js";
import { CloudError } from "./errors.js";
import { PAGING_ERROR_REASONS } from "./pageTypes.js";
import { PagingError } from "./pagingError.js";

describe("PagingError", () => {
  it("is an exporter error with the stable code paging_error, whatever the reason", () => {
    for (const reason of PAGING_ERROR_REASONS) {
      const err = new PagingError("GET /v2/backups", reason, "details");
      expect(err).toBeInstanceOf(Error);
      expect(err).toBeInstanceOf(ExporterError);
      expect(err).not.toBeInstanceOf(CloudError);
      expect(err).toMatchObject({
        name: "PagingError",
        code: "paging_error",
        endpoint: "GET /v2/backups",
        reason,
        message: `GET /v2/backups: paging error (${reason}): details`,
      });
      expect(err.cause).toBeUndefined();
    }
  });

  it("keeps the cause it is given", () => {
    const cause = new Error("underneath");
    expect(new PagingError("GET /v2/clusters", "long_page", "x", { cause }).cause).toBe(cause);
  });

  it("shares its root with the upstream's CloudError", () => {
    const cloud = new CloudError("timeout", "no answer", { endpoint: "GET /v2/clusters" });
    expect(cloud).toBeInstanceOf(ExporterError);
    expect(cloud.code).toBe("timeout");
  });
});
