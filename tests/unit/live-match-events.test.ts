import { describe, expect, it } from "vitest";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import {
  formatMatchMinute,
  type KeyEventView,
  keyEventOf,
  type MatchMinute,
  orderKeyEvents,
  parseMatchMinute,
  withKeyEvent,
} from "#app/lib/live-coverage.ts";

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

describe("um lance novo no resumo, na página aberta (withKeyEvent), como o servidor o listaria", () => {
  let clock = 0;
  const key = (id: string, minute: string | null, text = `Lance ${id}`): KeyEventView =>
    keyEventOf({ id, minute, text, eventType: "goal", createdAt: new Date(Date.UTC(2026, 10, 28, 19, 0, clock++)).toISOString() });

  it("entra no lugar do seu minuto, com o resumo da primeira linha", () => {
    const events = orderKeyEvents(
      [key("gol-12", "12"), key("gol-60", "60")].map((each) => ({ ...each, match: parseMatchMinute(each.minute!) as MatchMinute })),
    );
    const added = withKeyEvent(events, key("cartao-30", "30", "Cartão amarelo\npara o zagueiro"));
    expect(added.map((each) => each.id)).toEqual(["gol-60", "cartao-30", "gol-12"]);
    expect(added[1]!.summary).toBe("Cartão amarelo");
    // Without a minute it goes after the furthest minute posted before it; the same one again is not doubled.
    expect(withKeyEvent(added, key("sem-minuto", null)).map((each) => each.id)).toEqual(["sem-minuto", "gol-60", "cartao-30", "gol-12"]);
    expect(withKeyEvent(added, added[1]!).map((each) => each.id)).toEqual(["gol-60", "cartao-30", "gol-12"]);
  });

  it(`guarda os ${LIVE_LIMITS.keyEvents} postados por último`, () => {
    let events: KeyEventView[] = [];
    for (let i = 0; i <= LIVE_LIMITS.keyEvents; i++) events = withKeyEvent(events, key(`lance-${i}`, String(i)));
    expect(events).toHaveLength(LIVE_LIMITS.keyEvents);
    expect(events[0]!.id).toBe(`lance-${LIVE_LIMITS.keyEvents}`);
    expect(events.map((each) => each.id)).not.toContain("lance-0");
  });
});
