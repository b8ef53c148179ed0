import { describe, expect, it } from "vitest";
import { formatCardTime, formatLongDate, formatLongDateTime } from "#app/i18n/format.ts";

describe("formatLongDate", () => {
  it("shows a creation date in long pt-BR form", () => {
    expect(formatLongDate("2026-11-22T12:00:00Z", "America/Sao_Paulo")).toBe("22 de novembro de 2026");
    expect(formatLongDate("2026-03-05T15:00:00.000Z", "America/Sao_Paulo")).toBe("5 de março de 2026");
  });

  it("uses the São Paulo calendar day, not the UTC one, late in the UTC day", () => {
    expect(formatLongDate("2026-11-23T01:30:00Z", "America/Sao_Paulo")).toBe("22 de novembro de 2026");
    expect(formatLongDate("2027-01-01T02:59:59Z", "America/Sao_Paulo")).toBe("31 de dezembro de 2026");
    expect(formatLongDate("2027-01-01T03:00:00Z", "America/Sao_Paulo")).toBe("1 de janeiro de 2027");
  });

  it("follows the configured time zone", () => {
    expect(formatLongDate("2026-11-23T01:30:00Z", "UTC")).toBe("23 de novembro de 2026");
    expect(formatLongDate("2026-11-22T12:00:00Z", "Asia/Tokyo")).toBe("22 de novembro de 2026");
    expect(formatLongDate("2026-11-22T16:00:00Z", "Asia/Tokyo")).toBe("23 de novembro de 2026");
  });

  it("returns a value that is not a valid date as it is", () => {
    expect(formatLongDate("ontem à noite", "America/Sao_Paulo")).toBe("ontem à noite");
    expect(formatLongDate("2026-13-45", "America/Sao_Paulo")).toBe("2026-13-45");
  });

  it("shows 'Data não disponível' for a missing value", () => {
    expect(formatLongDate(null, "America/Sao_Paulo")).toBe("Data não disponível");
    expect(formatLongDate(undefined, "America/Sao_Paulo")).toBe("Data não disponível");
    expect(formatLongDate("", "America/Sao_Paulo")).toBe("Data não disponível");
    expect(formatLongDate("   ", "America/Sao_Paulo")).toBe("Data não disponível");
  });
});

describe("formatCardTime", () => {
  const SP = "America/Sao_Paulo";
  // 15:00 in São Paulo on 26 November 2026.
  const now = "2026-11-26T18:00:00.000Z";

  it("is relative for a story published today on the site's clock", () => {
    expect(formatCardTime("2026-11-26T17:59:40.000Z", now, SP)).toBe("agora");
    expect(formatCardTime("2026-11-26T17:55:00.000Z", now, SP)).toBe("há 5 min");
    expect(formatCardTime("2026-11-26T15:30:00.000Z", now, SP)).toBe("há 2 h");
    // 00:10 in São Paulo: still today there.
    expect(formatCardTime("2026-11-26T03:10:00.000Z", now, SP)).toBe("há 14 h");
  });

  it("is the date for an earlier day on the site's clock, even when it is the same day in UTC", () => {
    // 23:50 on the 25th in São Paulo (02:50 UTC on the 26th).
    expect(formatCardTime("2026-11-26T02:50:00.000Z", now, SP)).toBe("25/11/2026");
    expect(formatCardTime("2026-01-05T12:00:00.000Z", now, SP)).toBe("05/01/2026");
  });

  it("shows the date for a time after `now` (a clock difference) and the value as is when it is not a date", () => {
    expect(formatCardTime("2026-11-26T18:30:00.000Z", now, SP)).toBe("26/11/2026");
    expect(formatCardTime("ontem", now, SP)).toBe("ontem");
  });
});

describe("formatLongDateTime", () => {
  it("adds the time of day on the site's clock (Brasília: UTC-3)", () => {
    expect(formatLongDateTime("2026-11-25T17:05:00Z", "America/Sao_Paulo")).toBe("25 de novembro de 2026, 14:05");
    // Late in the UTC day it is still the day before in Brasília.
    expect(formatLongDateTime("2026-11-26T01:30:00Z", "America/Sao_Paulo")).toBe("25 de novembro de 2026, 22:30");
  });

  it("shows a value that is not a date as formatLongDate does", () => {
    expect(formatLongDateTime("ontem à noite", "America/Sao_Paulo")).toBe("ontem à noite");
    expect(formatLongDateTime(" ", "America/Sao_Paulo")).toBe("Data não disponível");
  });
});
