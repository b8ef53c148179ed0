import { describe, expect, it } from "vitest";
import { boundedMemo } from "./bounded-memo.ts";

describe("boundedMemo", () => {
  it("computes each key once while it is remembered", () => {
    const calls: string[] = [];
    const upper = boundedMemo((key) => {
      calls.push(key);
      return key.toUpperCase();
    });
    expect([upper("a"), upper("b"), upper("a"), upper("b")]).toEqual(["A", "B", "A", "B"]);
    expect(calls).toEqual(["a", "b"]);
  });

  it("keeps at most `max` keys, then starts over", () => {
    const calls: string[] = [];
    const same = boundedMemo((key) => {
      calls.push(key);
      return key;
    }, 2);
    same("a");
    same("b");
    same("c"); // full: forgets a and b
    same("c");
    same("a");
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });

  it("remembers falsy values too", () => {
    let calls = 0;
    const empty = boundedMemo(() => {
      calls++;
      return "";
    });
    empty("x");
    empty("x");
    expect(calls).toBe(1);
  });
});
