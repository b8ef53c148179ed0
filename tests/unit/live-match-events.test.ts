import { describe, expect, it } from "vitest";
import { formatMatchMinute, type MatchMinute, orderKeyEvents, parseMatchMinute } from "../../app/lib/live-coverage.ts";
import { LIVE_LIMITS } from "../../app/lib/limits.ts";

describe("o minuto de uma atualização (parseMatchMinute)", () => {
  it("lê o minuto como o repórter digita: número, acréscimos depois do '+', com ou sem o sinal de minuto", () => {
    expect(parseMatchMinute("32")).toEqual({ minute: 32, added: null });
    expect(parseMatchMinute(" 0 ")).toEqual({ minute: 0, added: null });
    expect(parseMatchMinute("45+2")).toEqual({ minute: 45, added: 2 });
    expect(parseMatchMinute("90 + 4")).toEqual({ minute: 90, added: 4 });
    expect(parseMatchMinute("32'")).toEqual({ minute: 32, added: null });
    expect(parseMatchMinute("45+2’")).toEqual({ minute: 45, added: 2 });
    expect(parseMatchMinute(String(LIVE_LIMITS.minuteMax))).toEqual({ minute: LIVE_LIMITS.minuteMax, added: null });
    expect(parseMatchMinute(`120+${LIVE_LIMITS.addedTimeMax}`)).toEqual({ minute: 120, added: LIVE_LIMITS.addedTimeMax });
    expect(parseMatchMinute("")).toBeNull();
    expect(parseMatchMinute("   ")).toBeNull();
  });

  it("recusa o que não é um minuto de jogo", () => {
    for (const typed of [
      "-1",
      "1.5",
      "32min",
      "trinta",
      "45+",
      "+2",
      "45+0",
      "0+1",
      `${LIVE_LIMITS.minuteMax + 1}`,
      `90+${LIVE_LIMITS.addedTimeMax + 1}`,
      "45+2+1",
      "1e2",
    ]) {
      expect(parseMatchMinute(typed), typed).toBe("invalid");
    }
  });

  it("escreve o minuto como a API o devolve", () => {
    expect(formatMatchMinute({ minute: 32, added: null })).toBe("32");
    expect(formatMatchMinute({ minute: 45, added: 2 })).toBe("45+2");
  });
});

describe("a ordem dos lances importantes (orderKeyEvents)", () => {
  let clock = 0;
  const posted = (id: string, match: MatchMinute | null) => ({
    id,
    match,
    createdAt: new Date(Date.UTC(2026, 10, 28, 19, 0, clock++)).toISOString(),
  });
  const order = (events: Array<ReturnType<typeof posted>>) => orderKeyEvents(events).map((event) => event.id);

  it("o mais adiantado na partida primeiro, pelo minuto e pelos acréscimos, mesmo postado fora de ordem", () => {
    const events = [
      posted("inicio", { minute: 0, added: null }),
      posted("gol-12", { minute: 12, added: null }),
      posted("intervalo", { minute: 45, added: 2 }),
      posted("gol-45", { minute: 45, added: null }),
      // Written down later: the card at 32 goes by its minute, not by when it was posted.
      posted("cartao-32", { minute: 32, added: null }),
      posted("fim", { minute: 90, added: 4 }),
      posted("gol-90", { minute: 90, added: null }),
    ];
    expect(order(events)).toEqual(["fim", "gol-90", "intervalo", "gol-45", "cartao-32", "gol-12", "inicio"]);
    // The order they arrive in does not matter.
    expect(order([...events].reverse())).toEqual(order(events));
  });

  it("sem minuto, pelo momento em que foi postado: depois dos lances do minuto mais adiantado postado antes", () => {
    const events = [
      posted("gol-12", { minute: 12, added: null }),
      posted("lance-sem-minuto", null),
      posted("intervalo", { minute: 45, added: 1 }),
      posted("cartao-30-atrasado", { minute: 30, added: null }),
      posted("outro-sem-minuto", null),
    ];
    expect(order(events)).toEqual(["outro-sem-minuto", "intervalo", "cartao-30-atrasado", "lance-sem-minuto", "gol-12"]);
  });

  it("nenhum com minuto (coberturas de antes): do mais novo para o mais antigo, como sempre foi", () => {
    const events = [posted("a", null), posted("b", null), posted("c", null)];
    expect(order(events)).toEqual(["c", "b", "a"]);
    // Two in the same millisecond: the id decides, as the updates' list does.
    const at = new Date().toISOString();
    expect(
      orderKeyEvents([
        { id: "y", match: null, createdAt: at },
        { id: "x", match: null, createdAt: at },
      ]).map((event) => event.id),
    ).toEqual(["y", "x"]);
  });
});
