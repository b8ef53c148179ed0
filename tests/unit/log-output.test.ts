/**
 * The server's log output (app/.server/log-output.server.ts) on real descriptors: a file, a FIFO whose reader stalls,
 * and a child process's standard output at exit.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { createLogOutput } from "#app/.server/log-output.server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-log-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("every line reaches the file, in order, also 100 000 written in one turn", async () => {
  const file = path.join(tempDir(), "out.log");
  const fd = fs.openSync(file, "w");
  cleanups.push(() => fs.closeSync(fd));
  const output = createLogOutput(fd);
  const lines = Array.from({ length: 100_000 }, (_, index) => `{"i":${index},"msg":"linha ${index} — ação"}\n`);
  for (const line of lines) output.write(line);
  await output.drained();
  // And a turn later, a few more.
  output.write("fim\n");
  await output.drained();
  expect(fs.readFileSync(file, "utf8")).toBe(`${lines.join("")}fim\n`);
  expect(output.dropped).toBe(0);
});

test("a reader that stalls: past the bound, lines are dropped and counted, then a warning line says how many", async () => {
  const fifo = path.join(tempDir(), "pipe");
  execFileSync("mkfifo", [fifo]);
  // The reader first (without waiting for a writer), then the writer, which blocks once the pipe (64 kB) is full.
  const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const writer = fs.openSync(fifo, fs.constants.O_WRONLY);
  cleanups.push(() => {
    fs.closeSync(writer);
    fs.closeSync(reader);
  });
  const line = (index: number) => `${String(index).padStart(99, "0")}\n`;
  const output = createLogOutput(writer, { maxQueuedChars: 100_000, droppedLine: (dropped) => `descartadas ${dropped}\n` });
  // 2 000 lines of 100 characters: the first 1 000 fit the bound, the other 1 000 are dropped.
  for (let index = 0; index < 2000; index++) output.write(line(index));
  expect(output.dropped).toBe(1000);

  const expected = `${Array.from({ length: 1000 }, (_, index) => line(index)).join("")}descartadas 1000\n`;
  let received = "";
  const chunk = Buffer.alloc(65_536);
  const deadline = Date.now() + 10_000;
  while (received.length < expected.length && Date.now() < deadline) {
    try {
      const read = fs.readSync(reader, chunk, 0, chunk.length, null);
      received += chunk.toString("utf8", 0, read);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  expect(received).toBe(expected);
  await output.drained();
  // Caught up: nothing more is dropped.
  output.write(line(2000));
  expect(output.dropped).toBe(1000);
});

test("what is still queued when the process exits is written before it ends", () => {
  const logger = path.join(ROOT, "app/.server/logger.server.ts");
  const script = `
    import { createLogger } from ${JSON.stringify(logger)};
    const log = createLogger({ logLevel: "info" }, { buffered: true });
    for (let i = 0; i < 20000; i++) log.info({ i }, "linha");
    process.exit(0);
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(child.status, child.stderr).toBe(0);
  const lines = child.stdout
    .trim()
    .split("\n")
    .map((text) => JSON.parse(text) as { i: number; msg: string });
  expect(lines).toHaveLength(20000);
  expect(lines.every((entry, index) => entry.i === index && entry.msg === "linha")).toBe(true);
});
