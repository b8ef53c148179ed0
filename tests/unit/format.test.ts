import { describe, expect, it } from "vitest";
import { formatLongDate } from "../../app/i18n/format.ts";

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
