/** What the framer reports: a complete line's bytes, or a line that was too long. */
export interface LineSink {
  line(bytes: Uint8Array): void;
  oversize(bytes: number): void;
}

const LF = 0x0a;
const CR = 0x0d;

function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  }
  return true;
}

/**
 * Splits a byte stream into newline-delimited frames. A trailing CR is dropped, blank
 * lines are skipped, and a line longer than `maxBytes` is reported once and then
 * discarded up to its newline without ever holding more than `maxBytes` of it.
 */
export class LineFramer {
  private parts: Uint8Array[] = [];
  private size = 0;
  private discarding = false;
  private discarded = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sink: LineSink,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        if (start < chunk.length) this.hold(chunk.subarray(start));
        return;
      }
      if (this.discarding) {
        this.discarding = false;
        this.sink.oversize(this.discarded + (nl - start));
        this.discarded = 0;
      } else if (this.size + (nl - start) > this.maxBytes) {
        this.sink.oversize(this.size + (nl - start));
        this.parts = [];
        this.size = 0;
      } else {
        let line: Uint8Array;
        if (this.size === 0) {
          line = chunk.subarray(start, nl);
        } else {
          this.parts.push(chunk.subarray(start, nl));
          line = concat(this.parts, this.size + (nl - start));
          this.parts = [];
          this.size = 0;
        }
        this.emit(line);
      }
      start = nl + 1;
    }
  }

  /** Flushes a final line that had no newline (the stream ended). */
  end(): void {
    if (this.discarding) {
      this.discarding = false;
      this.sink.oversize(this.discarded);
      this.discarded = 0;
      return;
    }
    if (this.size > 0) {
      const line = concat(this.parts, this.size);
      this.parts = [];
      this.size = 0;
      this.emit(line);
    }
  }

  /** Bytes currently held for an incomplete line. */
  get buffered(): number {
    return this.size;
  }

  private hold(rest: Uint8Array): void {
    if (this.discarding) {
      this.discarded += rest.length;
      return;
    }
    if (this.size + rest.length > this.maxBytes) {
      // Drop what we hold and skip to the next newline: memory stays bounded.
      this.discarding = true;
      this.discarded = this.size + rest.length;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(rest);
    this.size += rest.length;
  }

  private emit(line: Uint8Array): void {
    let end = line.length;
    if (end > 0 && line[end - 1] === CR) end--;
    const body = end === line.length ? line : line.subarray(0, end);
    if (body.length === 0 || isBlank(body)) return;
    this.sink.line(body);
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
