import pino from "pino";
import { expect, test } from "vitest";
import { accessLogger } from "#app/.server/logger.server.ts";

test("access lines keep their fields and still hide an error's secret fields", () => {
  const lines: Array<Record<string, unknown>> = [];
  const root = pino({ redact: { paths: ["*.password"], censor: "x" } }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const log = accessLogger(root);
  log.info({ req: { id: "r1", method: "GET", url: "/?token=[oculto]" }, res: { status: 200 }, cache: "hit", responseTime: 0.2 }, "request completed");
  const failure = Object.assign(new Error("falhou"), { password: "p4ss", token: "t0k", secret: "s3c", code: "E1" });
  log.error({ err: failure, req: { id: "r2", method: "POST", url: "/api/news" }, res: { status: 500 } }, "request errored");
  expect(lines[0]).toMatchObject({ req: { id: "r1", method: "GET", url: "/?token=[oculto]" }, res: { status: 200 }, cache: "hit" });
  expect(lines[1]!.err).toMatchObject({ message: "falhou", password: "[redigido]", token: "[redigido]", secret: "[redigido]", code: "E1" });
  expect(JSON.stringify(lines)).not.toMatch(/p4ss|t0k|s3c/);
});
