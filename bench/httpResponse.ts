/**
 * An incremental reader of one HTTP/1.1 response, fed the bytes of a connection as they
 * arrive. It is the measuring side of the scraper (scrape.ts): it counts the body instead of
 * keeping it unless asked, so a timed scrape of an 11 MB answer allocates almost nothing in
 * the harness. The harness's own garbage collection used to be most of the latency it
 * reported (see docs/performance.md).
 */
import { BenchError } from "./errors.js";

/** The most bytes of a status line plus headers this reader accepts. */
const MAX_HEAD_BYTES = 64 * 1024;
/** The most bytes of one chunk-size or trailer line. */
const MAX_LINE_BYTES = 4 * 1024;

const CR = 13;
const LF = 10;

type Phase =
  | { readonly kind: "head" }
  | { readonly kind: "length"; left: number }
  | { readonly kind: "untilClose" }
  | { readonly kind: "chunkSize" }
  | { readonly kind: "chunkData"; left: number }
  | { readonly kind: "chunkEnd"; left: number }
  | { readonly kind: "trailer" }
  | { readonly kind: "done" };

function malformed(why: string): BenchError {
  return new BenchError("scrape_failed", `malformed HTTP response: ${why}`);
}

/**
 * Reads one response. Bodies framed by Content-Length, by chunked transfer coding, or (with
 * neither) by the end of the connection are understood; the body is counted and, with
 * `keepBody`, copied out (the bytes pushed in may be reused by the caller afterwards).
 */
export class ResponseReader {
  status = 0;
  /** Header names lower-cased; a repeated header keeps its last value. */
  readonly headers = new Map<string, string>();
  /** Body bytes received (after removing the chunked framing). */
  bodyBytes = 0;
  private phase: Phase = { kind: "head" };
  private line: number[] = [];
  private head: Buffer[] = [];
  private headBytes = 0;
  private readonly kept: Buffer[] = [];

  constructor(private readonly keepBody: boolean) {}

  /** Whether the whole response has been read. */
  get done(): boolean {
    return this.phase.kind === "done";
  }

  /** Whether the server will close the connection after this response. */
  get closes(): boolean {
    return (this.headers.get("connection") ?? "").toLowerCase().includes("close");
  }

  /** The body as received (still compressed if it was), or empty unless `keepBody`. */
  body(): Buffer {
    return Buffer.concat(this.kept);
  }

  /**
   * Takes the next bytes of the connection; returns true once the response is complete.
   * Bytes past the end of the response are an error: the harness sends one request at a time.
   */
  push(data: Uint8Array): boolean {
    let at = 0;
    while (at < data.length) {
      if (this.phase.kind === "done") throw malformed(`${data.length - at} bytes after the response`);
      at = this.step(data, at);
    }
    return this.done;
  }

  /** The connection ended: completes a body framed by the end, else the response is cut. */
  end(): void {
    if (this.phase.kind === "untilClose") this.phase = { kind: "done" };
    if (this.phase.kind !== "done") throw malformed(`connection closed while reading the ${this.phase.kind}`);
  }

  /** Consumes from `data[at]` on within the current phase; returns where it stopped. */
  private step(data: Uint8Array, at: number): number {
    const phase = this.phase;
    switch (phase.kind) {
      case "head":
        return this.readHead(data, at);
      case "length":
      case "chunkData": {
        const n = Math.min(phase.left, data.length - at);
        this.take(data, at, n);
        phase.left -= n;
        if (phase.left === 0)
          this.phase = phase.kind === "length" ? { kind: "done" } : { kind: "chunkEnd", left: 2 };
        return at + n;
      }
      case "untilClose":
        this.take(data, at, data.length - at);
        return data.length;
      case "chunkEnd": {
        const expected = phase.left === 2 ? CR : LF;
        if (data[at] !== expected) throw malformed("chunk not followed by CRLF");
        phase.left -= 1;
        if (phase.left === 0) this.phase = { kind: "chunkSize" };
        return at + 1;
      }
      case "chunkSize":
      case "trailer": {
        const next = this.readLine(data, at);
        if (next.line === undefined) return next.at;
        if (phase.kind === "trailer") {
          if (next.line === "") this.phase = { kind: "done" };
          return next.at;
        }
        const size = Number.parseInt(next.line.split(";")[0]?.trim() ?? "", 16);
        if (!Number.isSafeInteger(size) || size < 0) throw malformed(`chunk size "${next.line}"`);
        this.phase = size === 0 ? { kind: "trailer" } : { kind: "chunkData", left: size };
        return next.at;
      }
      case "done":
        return at;
    }
  }

  private take(data: Uint8Array, at: number, n: number): void {
    this.bodyBytes += n;
    if (this.keepBody && n > 0) this.kept.push(Buffer.from(data.subarray(at, at + n)));
  }

  /** Collects one CRLF-terminated line; `line` is undefined until its LF arrived. */
  private readLine(data: Uint8Array, at: number): { line?: string; at: number } {
    for (let i = at; i < data.length; i++) {
      const byte = data[i] as number;
      if (byte !== LF) {
        if (this.line.length >= MAX_LINE_BYTES) throw malformed("line too long");
        this.line.push(byte);
        continue;
      }
      const bytes = this.line;
      this.line = [];
      if (bytes[bytes.length - 1] === CR) bytes.pop();
      return { line: Buffer.from(bytes).toString("latin1"), at: i + 1 };
    }
    return { at: data.length };
  }

  private readHead(data: Uint8Array, at: number): number {
    const part = Buffer.from(data.subarray(at));
    this.head.push(part);
    this.headBytes += part.length;
    const head = Buffer.concat(this.head);
    // Search from a little before this part: the blank line may straddle two reads.
    const end = head.indexOf("\r\n\r\n", Math.max(0, this.headBytes - part.length - 3));
    if (end < 0) {
      if (this.headBytes > MAX_HEAD_BYTES) throw malformed(`no end of headers in ${this.headBytes} bytes`);
      this.head = [head];
      return data.length;
    }
    this.parseHead(head.subarray(0, end).toString("latin1"));
    this.head = [];
    // Bytes of this read past the blank line belong to the body.
    return data.length - (head.length - (end + 4));
  }

  private parseHead(text: string): void {
    const [statusLine = "", ...lines] = text.split("\r\n");
    const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
    if (!status) throw malformed(`status line "${statusLine.slice(0, 80)}"`);
    this.status = Number(status[1]);
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw malformed(`header line "${line.slice(0, 80)}"`);
      this.headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const chunked = (this.headers.get("transfer-encoding") ?? "").toLowerCase().includes("chunked");
    const length = this.headers.get("content-length");
    if (this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200)) {
      this.phase = { kind: "done" };
    } else if (chunked) {
      this.phase = { kind: "chunkSize" };
    } else if (length !== undefined) {
      const n = Number(length);
      if (!/^\d+$/.test(length) || !Number.isSafeInteger(n)) throw malformed(`content-length "${length}"`);
      this.phase = n === 0 ? { kind: "done" } : { kind: "length", left: n };
    } else {
      this.phase = { kind: "untilClose" };
    }
  }
}
