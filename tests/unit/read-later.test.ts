/** "Ler depois" on the device (app/lib/read-later.ts): what is read back from storage, marking and unmarking. */
import { describe, expect, it } from "vitest";
import { parseReadLater, READ_LATER_MAX, toggledReadLater } from "#app/lib/read-later.ts";

const story = (n: number) => ({ id: `id-${n}`, path: `/article/id-${n}/historia-${n}`, title: `História ${n}` });

describe("Ler depois", () => {
  it("marks a story first, once; marking it again unmarks it; at most READ_LATER_MAX, the oldest let go", () => {
    const one = toggledReadLater([], story(1), 1000);
    expect(one).toEqual([{ ...story(1), savedAt: 1000 }]);
    const two = toggledReadLater(one, story(2), 2000);
    expect(two.map((item) => item.id)).toEqual(["id-2", "id-1"]);
    expect(toggledReadLater(two, story(1), 3000).map((item) => item.id)).toEqual(["id-2"]);
    let full = two;
    for (let n = 3; n <= READ_LATER_MAX + 5; n++) full = toggledReadLater(full, story(n), n * 1000);
    expect(full).toHaveLength(READ_LATER_MAX);
    expect(full[0]!.id).toBe(`id-${READ_LATER_MAX + 5}`);
    expect(full.some((item) => item.id === "id-1")).toBe(false);
  });

  it("reads back only well-formed items: nothing stored, broken JSON, other shapes and other paths give nothing", () => {
    const good = { ...story(1), savedAt: 5 };
    expect(parseReadLater(JSON.stringify([good]))).toEqual([good]);
    expect(parseReadLater(null)).toEqual([]);
    expect(parseReadLater("{não é json")).toEqual([]);
    expect(parseReadLater(JSON.stringify({ id: "x" }))).toEqual([]);
    expect(
      parseReadLater(
        JSON.stringify([good, { ...good, id: 3 }, { ...good, path: "javascript:alert(1)" }, { ...good, path: "https://outro.example/article/x" }]),
      ),
    ).toEqual([good]);
  });
});
