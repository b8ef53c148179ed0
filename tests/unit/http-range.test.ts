import { describe, expect, it } from "vitest";
import { parseRange } from "#app/.server/media/http-range.ts";

const SIZE = 1000;

describe("parseRange", () => {
  it("returns null (serve everything) without a header", () => {
    expect(parseRange(null, SIZE)).toBeNull();
    expect(parseRange("", SIZE)).toBeNull();
  });

  it("reads a closed range, both ends inclusive", () => {
    expect(parseRange("bytes=0-99", SIZE)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=100-100", SIZE)).toEqual({ start: 100, end: 100 });
    expect(parseRange("  bytes=10-19  ", SIZE)).toEqual({ start: 10, end: 19 });
  });

  it("reads an open-ended range up to the last byte", () => {
    expect(parseRange("bytes=500-", SIZE)).toEqual({ start: 500, end: 999 });
    expect(parseRange("bytes=0-", SIZE)).toEqual({ start: 0, end: 999 });
    expect(parseRange("bytes=999-", SIZE)).toEqual({ start: 999, end: 999 });
  });

  it("reads a suffix range (the last N bytes)", () => {
    expect(parseRange("bytes=-100", SIZE)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=-1", SIZE)).toEqual({ start: 999, end: 999 });
    // A suffix longer than the object means the whole object.
    expect(parseRange("bytes=-5000", SIZE)).toEqual({ start: 0, end: 999 });
  });

  it("clamps an end past the size to the last byte", () => {
    expect(parseRange("bytes=900-5000", SIZE)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=0-1000", SIZE)).toEqual({ start: 0, end: 999 });
  });

  it("answers 'unsatisfiable' for a start at or past the size", () => {
    expect(parseRange("bytes=1000-", SIZE)).toBe("unsatisfiable");
    expect(parseRange("bytes=1000-1100", SIZE)).toBe("unsatisfiable");
    expect(parseRange("bytes=5000-6000", SIZE)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
  });

  it("answers 'unsatisfiable' for bytes=-0 (an empty suffix)", () => {
    expect(parseRange("bytes=-0", SIZE)).toBe("unsatisfiable");
  });

  it("ignores a malformed header (null)", () => {
    for (const header of ["bytes=abc", "bytes=", "bytes=-", "bytes 0-99", "items=0-99", "bytes=1-2-3", "bytes=0x10-20", "garbage"]) {
      expect(parseRange(header, SIZE), header).toBeNull();
    }
  });

  it("answers a multi-range request with the whole object (null)", () => {
    expect(parseRange("bytes=0-9,20-29", SIZE)).toBeNull();
  });
});
