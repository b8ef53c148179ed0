import { describe, expect, it } from "vitest";
import { MATCH_STRIP_MAX, type MatchOfTheDay, matchesOfTheDay } from "./live-coverage.ts";

const match = (id: string, state: "live" | "ended" | "next", startedAt: string): MatchOfTheDay => ({
  id,
  title: `Jogo ${id}`,
  score: { home: "A", away: "B", homeScore: 1, awayScore: 0, period: "", state },
  startedAt,
  competition: null,
});

describe("matchesOfTheDay", () => {
  const zone = "America/Sao_Paulo";
  // 28/11 at 23:30 in São Paulo (UTC-3).
  const now = new Date("2026-11-29T02:30:00.000Z");

  it("lists the live matches first, then those of the site's day that ended, newest first", () => {
    const shown = matchesOfTheDay(
      [
        match("ontem", "ended", "2026-11-28T02:00:00.000Z"), // 27/11, 23:00 in São Paulo
        match("tarde", "ended", "2026-11-28T19:00:00.000Z"), // 28/11, 16:00
        match("aovivo-velho", "live", "2026-11-27T22:00:00.000Z"),
        match("noite", "ended", "2026-11-28T23:30:00.000Z"), // 28/11, 20:30
        match("aovivo", "live", "2026-11-29T00:30:00.000Z"),
      ],
      now,
      zone,
    );
    expect(shown.map((each) => each.id)).toEqual(["aovivo", "aovivo-velho", "noite", "tarde"]);
  });

  it("puts the matches still to come today between the live and the ended ones, soonest first", () => {
    // 15:00 of 28/11 in São Paulo.
    const afternoon = new Date("2026-11-28T18:00:00.000Z");
    const shown = matchesOfTheDay(
      [
        match("fim", "ended", "2026-11-28T15:00:00.000Z"),
        match("noite", "next", "2026-11-28T23:30:00.000Z"),
        match("amanha", "next", "2026-11-29T19:00:00.000Z"),
        match("tarde", "next", "2026-11-28T19:00:00.000Z"),
        match("aovivo", "live", "2026-11-28T17:00:00.000Z"),
      ],
      afternoon,
      zone,
    );
    expect(shown.map((each) => each.id)).toEqual(["aovivo", "tarde", "noite", "fim"]);
  });

  it("decides the day on the site's clock: past midnight there, the evening's matches are yesterday's", () => {
    const evening = [match("noite", "ended", "2026-11-28T23:30:00.000Z")];
    expect(matchesOfTheDay(evening, now, zone)).toHaveLength(1);
    // 00:10 of 29/11 in São Paulo.
    expect(matchesOfTheDay(evening, new Date("2026-11-29T03:10:00.000Z"), zone)).toEqual([]);
    // The same instant is still 28/11 nowhere near: in UTC it is already the 29th.
    expect(matchesOfTheDay(evening, now, "UTC")).toEqual([]);
  });

  it(`shows at most ${MATCH_STRIP_MAX}`, () => {
    const many = Array.from({ length: MATCH_STRIP_MAX + 3 }, (_, index) =>
      match(`j${index}`, "live", new Date(now.getTime() - index * 60_000).toISOString()),
    );
    expect(matchesOfTheDay(many, now, zone)).toHaveLength(MATCH_STRIP_MAX);
  });
});
