import { describe, expect, it } from "vitest";
import { t } from "#app/i18n/newsroom.ts";
import { cleanText, findUnsaveableCharacter } from "#app/lib/clean-text.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";

describe("cleanText: what a paste from Word, a web page or a phone keyboard loses", () => {
  it("drops the soft hyphen, zero-width space, non-joiner, word joiner and BOM", () => {
    expect(cleanText("Pal\u00ADmei\u00ADras")).toBe("Palmeiras");
    expect(cleanText("gol\u200Bde\u200Bplaca")).toBe("goldeplaca");
    expect(cleanText("\uFEFFCorinthians\uFEFF")).toBe("Corinthians");
    expect(cleanText("Grê\u200Cmio\u2060")).toBe("Grêmio");
  });

  it("drops every bidirectional mark, embedding, override and isolate", () => {
    const marks = ["\u200E", "\u200F", "\u061C", "\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];
    for (const mark of marks) expect(cleanText(`Fla${mark}mengo`), JSON.stringify(mark)).toBe("Flamengo");
  });

  it("drops C0 controls but tab and line feed, C1 controls and DEL", () => {
    for (const control of ["\u0000", "\u0001", "\u0007", "\u0008", "\u000B", "\u000C", "\u001B", "\u001F", "\u007F", "\u0080", "\u009B", "\u009F"]) {
      expect(cleanText(`Vas${control}co`), JSON.stringify(control)).toBe("Vasco");
    }
    expect(cleanText("a\tb\nc")).toBe("a\tb\nc");
  });

  it("line breaks: CR LF, CR, NEL and the separators are a line feed where lines are kept, else a space", () => {
    expect(cleanText("a\r\nb\rc\u0085d\u2028e\u2029f")).toBe("a\nb\nc\nd\ne\nf");
    expect(cleanText("a\r\nb\nc\u2028d", { lines: false })).toBe("a b c d");
  });

  it("a run of spaces with a no-break space (or another Unicode space) is one plain space; plain spaces are left alone", () => {
    expect(cleanText("Santos\u00A0\u00A0\u00A0x\u00A0 \u00A0Santo André")).toBe("Santos x Santo André");
    expect(cleanText("2\u00A0x\u00A01")).toBe("2 x 1");
    expect(cleanText("a\u202Fb\u2007c\u2003d\u3000e")).toBe("a b c d e");
    expect(cleanText("a  b")).toBe("a  b");
  });

  it("drops Hangul fillers, the object replacement character, noncharacters and lone surrogates", () => {
    expect(cleanText("a\u3164b\u115Fc\uFFA0d\uFFFCe\uFDD0f\uFFFEg\u{10FFFF}h\uD800i\uDC00j")).toBe("abcdefghij");
  });

  it("keeps the zero-width joiner inside emoji and the tags of a subdivision flag, drops them anywhere else", () => {
    for (const emoji of [
      "👨\u200D👩\u200D👧",
      "🏳\uFE0F\u200D🌈",
      "🏃🏽\u200D♀\uFE0F",
      "👩🏽\u200D💻",
      "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
    ]) {
      expect(cleanText(`Torcida ${emoji} feliz`), emoji).toBe(`Torcida ${emoji} feliz`);
    }
    expect(cleanText("a\u200Db 👍\u200D x\u{E0067}\u{E007F}")).toBe("ab 👍 x");
  });

  it("composes accents typed as separate marks (NFD to NFC), also once an invisible character between them is gone", () => {
    const decomposed = "Sa\u0303o Paulo, Gre\u0302mio, Sele\u0063\u0327a\u0303o";
    expect(decomposed.length).toBeGreaterThan("São Paulo, Grêmio, Seleção".length);
    expect(cleanText(decomposed)).toBe("São Paulo, Grêmio, Seleção");
    expect(cleanText("Sa\u200B\u0303o")).toBe("São");
  });

  it("leaves Portuguese text, punctuation, emoji with skin tones, keycaps and unassigned code points as they are", () => {
    const text = "Ação, coração, pingüim, àquela — “aspas” 1️⃣ 👍🏿 🇧🇷 ½ €";
    expect(cleanText(text)).toBe(text);
    // Possibly an emoji newer than the server's Unicode tables: kept.
    expect(cleanText("a\u{1FAFF}b")).toBe("a\u{1FAFF}b");
  });
});

describe("findUnsaveableCharacter: a private-use character, with the word that holds it", () => {
  it("names the word and the code point", () => {
    expect(findUnsaveableCharacter("Vitória do Palmeiras\uE000 no clássico")).toEqual({ word: "Palmeiras\uE000", codePoint: "U+E000" });
    expect(findUnsaveableCharacter("\u{F8FF}Apple")).toEqual({ word: "\u{F8FF}Apple", codePoint: "U+F8FF" });
    expect(findUnsaveableCharacter("time \u{F0001}")).toEqual({ word: "\u{F0001}", codePoint: "U+F0001" });
    expect(findUnsaveableCharacter("Palmeiras 👨\u200D👩\u200D👧")).toBeNull();
  });

  it("a very long word is shown as 20 characters either side", () => {
    const found = findUnsaveableCharacter(`https://exemplo.com/${"a".repeat(40)}\uE000${"b".repeat(40)}`);
    expect(found?.word).toBe(`…${"a".repeat(20)}\uE000${"b".repeat(20)}…`);
  });

  it("is what a news field refuses, with the word in the pt-BR message", () => {
    const parsed = newsInputSchema.safeParse({ title: "Palmeiras\uE000 vence", subtitle: "S", fullContent: "Texto" });
    const message = parsed.error?.issues[0]?.message;
    expect(message).toBe(t.newsForm.unsaveableCharacter("Título", "Palmeiras\uE000", "U+E000"));
    expect(message).toContain("A palavra “Palmeiras\uE000” (Título) tem um caractere que não pode ser salvo (U+E000)");
    expect(t.newsForm.unsaveableCharacter("Título", "\uE000", "U+E000")).toContain(
      "Título tem, entre duas palavras, um caractere que não pode ser salvo (U+E000)",
    );
  });
});
