import { describe, expect, it } from "vitest";
import { memoUntilChanged } from "#app/.server/events/memo.server.ts";

/** A loader that counts its reads and answers what `next` says. */
function counted<T>(next: (reads: number) => Promise<T>) {
  const state = { reads: 0 };
  const load = () => {
    state.reads++;
    return next(state.reads);
  };
  return { state, load };
}

describe("memoUntilChanged", () => {
  it("reads once until invalidated, then once more", async () => {
    let value = "a";
    const { state, load } = counted(async () => value);
    const memo = memoUntilChanged(load);
    expect(await memo.get()).toBe("a");
    value = "b";
    expect(await memo.get()).toBe("a");
    expect(state.reads).toBe(1);
    memo.invalidate();
    expect(await memo.get()).toBe("b");
    expect(await memo.get()).toBe("b");
    expect(state.reads).toBe(2);
  });

  it("a read in flight when the data changes is not kept past the change", async () => {
    let release!: (value: string) => void;
    let value = "old";
    const { state, load } = counted((reads) => (reads === 1 ? new Promise<string>((resolve) => (release = resolve)) : Promise.resolve(value)));
    const memo = memoUntilChanged(load);
    const first = memo.get();
    value = "new";
    memo.invalidate();
    release("old");
    expect(await first).toBe("old");
    expect(await memo.get()).toBe("new");
    expect(state.reads).toBe(2);
  });

  it("another key (the next day) reads again", async () => {
    const { state, load } = counted(async (reads) => reads);
    const memo = memoUntilChanged(load);
    await memo.get("2026-11-26");
    await memo.get("2026-11-26");
    await memo.get("2026-11-27");
    expect(state.reads).toBe(2);
  });

  it("past maxAgeMs it reads again (a missed event is not forever)", async () => {
    let now = 1_000;
    const { state, load } = counted(async (reads) => reads);
    const memo = memoUntilChanged(load, { maxAgeMs: 500, clock: () => now });
    await memo.get();
    now += 500;
    await memo.get();
    expect(state.reads).toBe(1);
    now += 1;
    await memo.get();
    expect(state.reads).toBe(2);
  });

  it("a failed read is not kept: the next request asks again", async () => {
    let fail = true;
    const { state, load } = counted(async () => {
      if (fail) throw new Error("banco fora do ar");
      return "ok";
    });
    const memo = memoUntilChanged(load);
    await expect(memo.get()).rejects.toThrow("banco fora do ar");
    fail = false;
    expect(await memo.get()).toBe("ok");
    expect(state.reads).toBe(2);
  });
});

describe("memoUntilChanged with several keys", () => {
  it("keeps up to maxKeys values, drops the one kept longest past that, and invalidate drops them all", async () => {
    const reads: string[] = [];
    const memo = memoUntilChanged(
      async (arg: { id: string }) => {
        reads.push(arg.id);
        return `related to ${arg.id}`;
      },
      { maxKeys: 2, keyOf: (arg) => arg?.id ?? "" },
    );
    expect(await memo.get({ id: "a" })).toBe("related to a");
    await memo.get({ id: "b" });
    await memo.get({ id: "a" });
    await memo.get({ id: "b" });
    expect(reads).toEqual(["a", "b"]);
    await memo.get({ id: "c" }); // a was kept longest: dropped
    await memo.get({ id: "b" });
    await memo.get({ id: "a" });
    expect(reads).toEqual(["a", "b", "c", "a"]);
    memo.invalidate();
    await memo.get({ id: "a" });
    expect(reads).toEqual(["a", "b", "c", "a", "a"]);
  });

  it("a failed read of one key leaves the others kept", async () => {
    const reads: string[] = [];
    const memo = memoUntilChanged(
      async (id: string) => {
        reads.push(id);
        if (id === "bad") throw new Error("falhou");
        return id;
      },
      { maxKeys: 10 },
    );
    await memo.get("good");
    await expect(memo.get("bad")).rejects.toThrow("falhou");
    await memo.get("good");
    await expect(memo.get("bad")).rejects.toThrow("falhou");
    expect(reads).toEqual(["good", "bad", "bad"]);
  });
});
