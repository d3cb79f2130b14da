import { describe, expect, it } from "vitest";
import { ResponseReader } from "./httpResponse.js";

const head = (lines: string[]) => `${lines.join("\r\n")}\r\n\r\n`;
const BODY = "line one\nline two\n";

/** Whole responses with the status, headers and body a reader must see in them. */
const RESPONSES = [
  {
    name: "a Content-Length body",
    raw: head(["HTTP/1.1 200 OK", "Content-Length: 18", "Content-Type: text/plain"]) + BODY,
    status: 200,
    body: BODY,
  },
  {
    name: "a chunked body with extensions and a trailer",
    raw: `${head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])}9;ext=1\r\nline one\n\r\n9\r\nline two\n\r\n0\r\nX-Trailer: 1\r\n\r\n`,
    status: 200,
    body: BODY,
  },
  {
    name: "an empty chunked body",
    raw: `${head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])}0\r\n\r\n`,
    status: 200,
    body: "",
  },
  {
    name: "a 204 without a body",
    raw: head(["HTTP/1.1 204 No Content"]),
    status: 204,
    body: "",
  },
  {
    name: "Content-Length 0",
    raw: head(["HTTP/1.1 500 Internal Server Error", "Content-Length: 0"]),
    status: 500,
    body: "",
  },
];

/** Feeds `raw` cut at every position in `cuts` (each read a separate push). */
function feed(reader: ResponseReader, raw: Buffer, cuts: readonly number[]): boolean[] {
  const done: boolean[] = [];
  let from = 0;
  for (const cut of [...cuts, raw.length]) {
    if (cut > from) done.push(reader.push(raw.subarray(from, cut)));
    from = Math.max(from, cut);
  }
  return done;
}

describe("ResponseReader", () => {
  it.each(RESPONSES)("reads $name in one read and split at every byte", ({ raw, status, body }) => {
    const bytes = Buffer.from(raw, "latin1");
    for (let cut = 0; cut <= bytes.length; cut++) {
      const reader = new ResponseReader(true);
      const done = feed(reader, bytes, [cut]);
      expect(done.at(-1)).toBe(true);
      expect(done.slice(0, -1).every((d) => !d)).toBe(true);
      expect(reader.status).toBe(status);
      expect(reader.body().toString("latin1")).toBe(body);
      expect(reader.bodyBytes).toBe(body.length);
    }
  });

  it("counts a body it does not keep, and keeps copies, not the caller's reused buffer", () => {
    const raw = Buffer.from(head(["HTTP/1.1 200 OK", "Content-Length: 18"]) + BODY, "latin1");
    const counted = new ResponseReader(false);
    expect(counted.push(raw)).toBe(true);
    expect(counted.bodyBytes).toBe(18);
    expect(counted.body().length).toBe(0);

    const kept = new ResponseReader(true);
    const reused = Buffer.from(raw);
    kept.push(reused);
    reused.fill(0);
    expect(kept.body().toString()).toBe(BODY);
  });

  it("lower-cases header names and reads Connection: close", () => {
    const reader = new ResponseReader(false);
    reader.push(
      Buffer.from(
        head(["HTTP/1.1 200 OK", "Content-Encoding: gzip", "Connection: close", "Content-Length: 0"]),
      ),
    );
    expect(reader.headers.get("content-encoding")).toBe("gzip");
    expect(reader.closes).toBe(true);
  });

  it("reads a body without framing until the connection ends", () => {
    const reader = new ResponseReader(true);
    expect(reader.push(Buffer.from(head(["HTTP/1.1 200 OK"]) + BODY))).toBe(false);
    reader.end();
    expect(reader.done).toBe(true);
    expect(reader.body().toString()).toBe(BODY);
  });

  it.each([
    { name: "a bad status line", raw: head(["SPDY/3 200 OK", "Content-Length: 0"]), why: /status line/ },
    {
      name: "a header without a colon",
      raw: head(["HTTP/1.1 200 OK", "Content-Length 0"]),
      why: /header line/,
    },
    {
      name: "a non-numeric length",
      raw: head(["HTTP/1.1 200 OK", "Content-Length: 1e3"]),
      why: /content-length/,
    },
    {
      name: "a bad chunk size",
      raw: `${head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])}zz\r\n`,
      why: /chunk size/,
    },
    {
      name: "a chunk without its CRLF",
      raw: `${head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])}2\r\nabXY`,
      why: /CRLF/,
    },
    {
      name: "bytes after the response",
      raw: `${head(["HTTP/1.1 200 OK", "Content-Length: 2"])}abc`,
      why: /after the response/,
    },
  ])("rejects $name as scrape_failed", ({ raw, why }) => {
    const reader = new ResponseReader(false);
    let error: unknown;
    try {
      reader.push(Buffer.from(raw, "latin1"));
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: "scrape_failed", message: expect.stringMatching(why) });
  });

  it.each([
    { name: "in the headers", raw: "HTTP/1.1 200 OK\r\nContent-Le" },
    { name: "in a Content-Length body", raw: `${head(["HTTP/1.1 200 OK", "Content-Length: 9"])}abc` },
    { name: "between chunks", raw: `${head(["HTTP/1.1 200 OK", "Transfer-Encoding: chunked"])}3\r\nabc\r\n` },
  ])("reports a connection cut $name", ({ raw }) => {
    const reader = new ResponseReader(false);
    expect(reader.push(Buffer.from(raw))).toBe(false);
    expect(() => reader.end()).toThrow(/connection closed while reading/);
  });

  it("refuses headers that never end", () => {
    const reader = new ResponseReader(false);
    const line = Buffer.from(`X-Filler: ${"x".repeat(1000)}\r\n`);
    reader.push(Buffer.from("HTTP/1.1 200 OK\r\n"));
    expect(() => {
      for (let i = 0; i < 100; i++) reader.push(line);
    }).toThrow(/no end of headers/);
  });
});
