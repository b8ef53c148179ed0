/**
 * A full disk is told apart from other failures (tests/e2e/disk-full.spec.ts fills a real small disk under a running
 * server): real ENOSPC from /dev/full, real SQLITE_FULL from a database at its page limit, PostgreSQL's SQLSTATE
 * 53100, through the service wrapper, become the 507 with the pt-BR message, shown to the user as is.
 */
import fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { AppError, DiskFullError, diskFullOr, isDiskFull, isExpectedError, publicErrorMessage, wrapFailure } from "#app/.server/errors.ts";
import { t } from "#app/i18n/pt-BR.ts";

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("nada foi lançado");
}

describe.skipIf(!fs.existsSync("/dev/full"))("disco cheio", () => {
  it("ENOSPC de verdade (/dev/full) vira 507 com a mensagem em português pelo wrapper dos serviços", async () => {
    const enospc = thrownBy(() => fs.writeFileSync("/dev/full", "x"));
    expect((enospc as NodeJS.ErrnoException).code).toBe("ENOSPC");
    expect(isDiskFull(enospc)).toBe(true);

    const error = await wrapFailure("news_create_failed", "Falha ao adicionar notícia", async () => {
      throw enospc;
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DiskFullError);
    expect(error).toMatchObject({ code: "disk_full", status: 507, message: t.errors.diskFull });
    expect((error as Error).cause).toBe(enospc);
    expect(isExpectedError(error)).toBe(true);
    expect(publicErrorMessage(error, "abc")).toBe(t.errors.diskFull);
  });

  it("SQLITE_FULL de verdade (banco no limite de páginas) também, mesmo embrulhado", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("create table t (x text); pragma max_page_count = 4;");
    const full = thrownBy(() => {
      for (let index = 0; index < 100; index++) db.prepare("insert into t values (?)").run("x".repeat(4000));
    });
    db.close();
    expect(String(full)).toMatch(/full/i);
    expect(isDiskFull(full)).toBe(true);
    expect(isDiskFull(new Error("Falha ao adicionar notícia", { cause: full }))).toBe(true);
    expect(diskFullOr(full)).toBeInstanceOf(DiskFullError);
  });

  it("o 53100 do PostgreSQL conta; outras falhas não", () => {
    expect(isDiskFull(Object.assign(new Error("could not extend file"), { code: "53100" }))).toBe(true);
    for (const other of [
      new Error("x"),
      Object.assign(new Error("y"), { code: "ECONNREFUSED" }),
      new AppError("news_not_found", "Notícia não encontrada", 404),
      null,
      "texto",
    ]) {
      expect(isDiskFull(other)).toBe(false);
      expect(diskFullOr(other)).toBe(other);
    }
  });
});
