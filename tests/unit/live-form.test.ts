import { describe, expect, it } from "vitest";
import { AppError } from "#app/.server/errors.ts";
import { liveFormNotice, parseLiveForm } from "#app/.server/news/live/live-form.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";

const ZONE = "America/Sao_Paulo";

/** The newsroom's plain coverage forms (POST /api/news/:id/live): their fields read by the JSON API's rules. */
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

const codeOf = (fields: Record<string, string>) => {
  try {
    parseLiveForm(form(fields), ZONE);
  } catch (error) {
    return error instanceof AppError ? error.code : "not an AppError";
  }
  return null;
};

describe("formulários da cobertura ao vivo sem JavaScript", () => {
  it("uma atualização em texto simples, com as caixas de lance importante e fixar", () => {
    const asked = parseLiveForm(form({ intent: "post", text: "Primeiro.\n\nSegundo.", keyEvent: "on" }), ZONE);
    expect(asked).toMatchObject({ kind: "update", outcome: "posted", input: { text: "Primeiro.\n\nSegundo.", keyEvent: true, pinned: false } });
    expect(asked.kind === "update" && asked.input.body.content).toHaveLength(2);
    expect(codeOf({ intent: "post", text: "   " })).toBe("live_text_required");
    expect(codeOf({ intent: "post" })).toBe("live_text_required");
    expect(codeOf({ intent: "post", text: "x".repeat(LIVE_LIMITS.updateText + 1) })).toBe("live_text_too_long");
  });

  it("o minuto e o lance do formulário: opcionais, lidos e recusados pelas regras da API", () => {
    const asked = parseLiveForm(form({ intent: "post", text: "GOL!", minute: " 45+2 ", eventType: "goal" }), ZONE);
    expect(asked).toMatchObject({ kind: "update", input: { text: "GOL!", match: { minute: 45, added: 2 }, eventType: "goal" } });
    // Left empty (the select's "Atualização comum"): an ordinary update.
    expect(parseLiveForm(form({ intent: "post", text: "Bola rolando.", minute: "", eventType: "" }), ZONE)).toMatchObject({
      input: { match: null, eventType: null },
    });
    expect(codeOf({ intent: "post", text: "GOL!", minute: "trinta" })).toBe("live_minute_invalid");
    expect(codeOf({ intent: "post", text: "GOL!", minute: "131" })).toBe("live_minute_invalid");
    expect(codeOf({ intent: "post", text: "GOL!", eventType: "penalty" })).toBe("live_event_invalid");
    expect(liveFormNotice("live_minute_invalid")).toEqual({
      kind: "error",
      message: t.liveNewsroom.minuteInvalid(LIVE_LIMITS.minuteMax, LIVE_LIMITS.addedTimeMax),
    });
    expect(liveFormNotice("live_event_invalid")).toEqual({ kind: "error", message: t.liveNewsroom.eventInvalid });
  });

  it("o placar com os números do formulário; número inválido, time sem nome ou gols acima do limite são recusados", () => {
    const asked = parseLiveForm(
      form({ intent: "scoreboard", home: " Grêmio ", away: "Inter", homeScore: "2", awayScore: "0", period: "Intervalo" }),
      ZONE,
    );
    expect(asked).toEqual({
      kind: "coverage",
      outcome: "scoreboard",
      patch: { scoreboard: { home: "Grêmio", away: "Inter", homeScore: 2, awayScore: 0, period: "Intervalo" } },
    });
    expect(codeOf({ intent: "scoreboard", home: "Grêmio", away: "Inter", homeScore: "dois", awayScore: "0" })).toBe("scoreboard_invalid");
    expect(codeOf({ intent: "scoreboard", home: "Grêmio", away: "Inter", homeScore: "-1", awayScore: "0" })).toBe("scoreboard_invalid");
    expect(codeOf({ intent: "scoreboard", home: "", away: "Inter", homeScore: "1", awayScore: "0" })).toBe("scoreboard_invalid");
    expect(codeOf({ intent: "scoreboard", home: "A", away: "B", homeScore: String(LIVE_LIMITS.scoreMax + 1), awayScore: "0" })).toBe(
      "scoreboard_invalid",
    );
  });

  it("iniciar; encerrar e desligar só com a confirmação marcada; outra intenção é recusada", () => {
    expect(parseLiveForm(form({ intent: "live" }), ZONE)).toEqual({ kind: "coverage", outcome: "live", patch: { coverage: "live" } });
    expect(codeOf({ intent: "ended" })).toBe("live_end_unconfirmed");
    expect(parseLiveForm(form({ intent: "ended", confirm: "on" }), ZONE)).toEqual({
      kind: "coverage",
      outcome: "ended",
      patch: { coverage: "ended" },
    });
    expect(codeOf({ intent: "off" })).toBe("live_off_unconfirmed");
    expect(parseLiveForm(form({ intent: "off", confirm: "on" }), ZONE)).toEqual({ kind: "coverage", outcome: "off", patch: { coverage: null } });
    expect(codeOf({ intent: "save" })).toBe("live_form_invalid");
    expect(codeOf({})).toBe("live_form_invalid");
  });

  it("a mensagem da volta à página: o que foi feito, o motivo da recusa, e uma genérica para o resto", () => {
    expect(liveFormNotice(null)).toBeNull();
    expect(liveFormNotice("posted")).toEqual({ kind: "ok", message: t.liveNewsroom.posted });
    expect(liveFormNotice("off")).toEqual({ kind: "ok", message: t.liveNewsroom.turnedOff });
    expect(liveFormNotice("coverage_off")).toEqual({ kind: "error", message: t.liveNewsroom.coverageOff });
    expect(liveFormNotice("live_end_unconfirmed")).toEqual({ kind: "error", message: t.liveNewsroom.endUnconfirmed });
    expect(liveFormNotice("live_text_required")).toEqual({ kind: "error", message: t.liveNewsroom.textRequired });
    expect(liveFormNotice("toString")).toEqual({ kind: "error", message: t.liveNewsroom.failed });
    expect(liveFormNotice("<script>")).toEqual({ kind: "error", message: t.liveNewsroom.failed });
  });

  it("anunciar a partida: os times (placar 0 x 0), o início no relógio do site e a competição; retirar o anúncio", () => {
    const asked = parseLiveForm(
      form({ intent: "announce", home: "Flamengo", away: "Palmeiras", kickoffAt: "2026-11-29T16:00", competition: "Brasileirão" }),
      ZONE,
    );
    expect(asked).toEqual({
      kind: "coverage",
      outcome: "announced",
      patch: {
        scoreboard: { home: "Flamengo", away: "Palmeiras", homeScore: 0, awayScore: 0, period: "" },
        // 16:00 in São Paulo (UTC-3).
        announcement: { kickoffAt: "2026-11-29T19:00:00.000Z", competition: "Brasileirão" },
      },
    });
    expect(codeOf({ intent: "announce", home: "Flamengo", away: "Palmeiras", kickoffAt: "" })).toBe("announcement_invalid");
    expect(codeOf({ intent: "announce", home: "", away: "Palmeiras", kickoffAt: "2026-11-29T16:00" })).toBe("scoreboard_invalid");
    expect(parseLiveForm(form({ intent: "unannounce" }), ZONE)).toEqual({ kind: "coverage", outcome: "unannounced", patch: { announcement: null } });
    expect(liveFormNotice("announced")).toEqual({ kind: "ok", message: t.liveNewsroom.announced });
    expect(liveFormNotice("announcement_invalid")).toEqual({
      kind: "error",
      message: t.liveNewsroom.announcementFormInvalid(LIVE_LIMITS.competition),
    });
  });
});
