import fs from "node:fs";

export interface LogOutputOptions {
  /**
   * Characters queued (waiting or being written) past which new lines are dropped and counted instead of held:
   * the memory a stalled reader of the logs (a full pipe, a stuck journal) can make the server hold.
   */
  maxQueuedChars?: number;
  /** Written, as a log line of its own, once lines were dropped and the output caught up. */
  droppedLine?: (dropped: number) => string;
}

export interface LogOutput {
  /** pino's destination interface: one line, with its newline. */
  write(line: string): boolean;
  /** Writes what is queued and not yet being written, synchronously (on exit). */
  flushSync(): void;
  /** Resolves once everything queued so far is written. */
  drained(): Promise<void>;
  /** Lines dropped since the start. */
  readonly dropped: number;
}

/** 16 MB of queued lines: ~50 000 access lines, a few seconds of a 500-connection burst behind a stalled reader. */
const MAX_QUEUED_CHARS = 16 * 1024 * 1024;

function defaultDroppedLine(dropped: number): string {
  return `${JSON.stringify({ level: 40, time: Date.now(), app: "esporte-em-foco", dropped, msg: "log lines dropped: the log output did not keep up" })}\n`;
}

/**
 * The server's log output on a file descriptor (standard output): lines are queued and written by one asynchronous
 * write at a time, each write taking everything queued since the previous one began. pino's own asynchronous
 * destination (sonic-boom) writes at most 16 kB per write and per turn of the event loop: under 500 connections the
 * access lines came faster than that, and its queue held 142 MB of lines after 45 s (the whole growth of the
 * process's memory in `npm run bench:writes`). Here a turn's lines go out in the next write, whatever their size;
 * past `maxQueuedChars` new lines are dropped and counted (the server keeps serving; memory stays bounded), and a
 * warning line with the count follows once the output has caught up. What is still queued at exit is written
 * synchronously.
 */
export function createLogOutput(fd: number, options: LogOutputOptions = {}): LogOutput {
  const maxQueuedChars = options.maxQueuedChars ?? MAX_QUEUED_CHARS;
  const droppedLine = options.droppedLine ?? defaultDroppedLine;
  let queue: string[] = [];
  let queuedChars = 0;
  /** Characters of the write in flight (counted against the bound until it completes). */
  let writingChars = 0;
  let writing = false;
  /** Dropped since the last warning line. */
  let droppedSinceWarning = 0;
  let droppedTotal = 0;
  let waiters: Array<() => void> = [];
  /** Whether the last write failed (the warning line waits for one that succeeds). */
  let failing = false;

  const settle = () => {
    if (writing || queue.length) return;
    const resolved = waiters;
    waiters = [];
    for (const resolve of resolved) resolve();
  };

  const writeNext = () => {
    if (droppedSinceWarning && !failing && queuedChars + writingChars < maxQueuedChars / 2) {
      queue.push(droppedLine(droppedSinceWarning));
      droppedSinceWarning = 0;
    }
    if (!queue.length) return settle();
    writing = true;
    const text = queue.join("");
    writingChars = text.length;
    queue = [];
    queuedChars = 0;
    writeBuffer(Buffer.from(text));
  };

  const writeBuffer = (buffer: Buffer) => {
    fs.write(fd, buffer, 0, buffer.length, null, (error, written) => {
      if (error) {
        // A non-blocking descriptor that is full: the same bytes again shortly.
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") return void setTimeout(() => writeBuffer(buffer), 10);
        // Nowhere to write (a closed pipe): the lines being written are lost, and counted; the next lines try again.
        let lines = 0;
        for (const byte of buffer) if (byte === 10) lines += 1;
        droppedTotal += lines;
        droppedSinceWarning += lines;
        failing = true;
        writing = false;
        writingChars = 0;
        return writeNext();
      }
      if (written < buffer.length) return writeBuffer(buffer.subarray(written));
      failing = false;
      writing = false;
      writingChars = 0;
      writeNext();
    });
  };

  return {
    write(line) {
      if (queuedChars + writingChars + line.length > maxQueuedChars) {
        droppedSinceWarning += 1;
        droppedTotal += 1;
        return true;
      }
      queue.push(line);
      queuedChars += line.length;
      // Lines written in the same turn go out together: the write starts once this turn's work is done.
      if (!writing) {
        writing = true;
        setImmediate(() => {
          writing = false;
          writeNext();
        });
      }
      return true;
    },
    flushSync() {
      if (!queue.length) return;
      const text = queue.join("");
      queue = [];
      queuedChars = 0;
      try {
        fs.writeSync(fd, text);
      } catch {
        // Exiting: nowhere to report it.
      }
    },
    drained() {
      return new Promise((resolve) => {
        waiters.push(resolve);
        settle();
      });
    },
    get dropped() {
      return droppedTotal;
    },
  };
}
