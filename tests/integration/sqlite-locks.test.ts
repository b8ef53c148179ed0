import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runExclusive, runWithLock } from "#app/.server/db/locks.server.ts";
import { makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";

const LOCKS = path.resolve("app/.server/db/locks.server.ts");
const KEY = 4343;

/** Another process (the server, or an npm command) holding the lock on `file` until it is killed. */
async function holderProcess(file: string): Promise<ChildProcess> {
  const script = `
    const { runWithLock } = await import(${JSON.stringify(LOCKS)});
    await runWithLock({ dialect: "sqlite", file: ${JSON.stringify(file)}, db: null }, ${KEY}, async () => {
      process.stdout.write("held\\n");
      await new Promise(() => setInterval(() => {}, 60_000));
    });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("held") && resolve());
    child.on("exit", (code) => reject(new Error(`the holder exited (${code}) before taking the lock`)));
  });
  return child;
}

describe.runIf(TEST_DATABASE === "sqlite")("SQLite locks between processes (migrations, sweeps)", () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function database() {
    const dir = makeDataDir("eef-locks-");
    dirs.push(dir);
    return { dialect: "sqlite" as const, file: path.join(dir, "banco.sqlite"), db: null as never };
  }

  it("while another process holds it, an exclusive task is skipped and a waiting one runs only once it is released, even by kill -9", async () => {
    const db = database();
    const holder = await holderProcess(db.file);
    children.push(holder);

    let skippedRan = false;
    expect(await runExclusive(db, KEY, async () => (skippedRan = true))).toBe(false);
    expect(skippedRan).toBe(false);

    let waited = false;
    const waiting = runWithLock(db, KEY, async () => (waited = true));
    // A negative over a bounded window: nothing tells that a waiter is still waiting. It tries again every 25 ms
    // (locks.server.ts), so these 300 ms are a dozen refusals.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(waited).toBe(false);

    // A crashed holder leaves no lock behind: the operating system releases it with the process.
    holder.kill("SIGKILL");
    expect(await waiting).toBe(true);
    expect(await runExclusive(db, KEY, async () => {})).toBe(true);
  });

  it("two tasks of one process on the same lock run one after the other, and a failing task releases it", async () => {
    const db = database();
    const order: string[] = [];
    const first = runWithLock(db, KEY, async () => {
      order.push("first:start");
      // The first task's own length (no event to wait for): the second, refused as it was called, tries again every
      // 25 ms meanwhile, four times; the order below says it waited.
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push("first:end");
      throw new Error("falhou");
    });
    const second = runWithLock(db, KEY, async () => order.push("second"));
    await expect(first).rejects.toThrow("falhou");
    await second;
    expect(order).toEqual(["first:start", "first:end", "second"]);
  });
});
