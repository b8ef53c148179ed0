import { Writable } from "node:stream";
import pino from "pino";
import type { Logger } from "#app/.server/logger.server.ts";

/** A line the site logged, as pino writes it (level number, message, and whatever fields it carried). */
export interface LoggedLine {
  level: number;
  msg: string;
}

/** A logger that keeps every line (info and up) for the test to read, parsed, in order. */
export function recordingLogger(): { log: Logger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LoggedLine);
      done();
    },
  });
  return { log: pino({ level: "info" }, stream) as unknown as Logger, lines };
}
