import { describe, expect, it } from "vitest";
import { t } from "#app/i18n/newsroom.ts";
import { API_PAGE_SIZE_MAX, NEWS_LIMITS, NEWS_MEDIA_MAX_BYTES, SPONSOR_IMAGE_MAX_BYTES } from "#app/lib/limits.ts";
import { checkNewsMediaFile, checkSponsorImageFile, newsFormSchema, newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";

const base = { title: "Título", subtitle: "Sub", fullContent: "Texto", category: "Futebol" };
const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe("news text fields: what is cleaned, what is refused, with which message", () => {
  it("control characters (NUL, ESC, BEL, DEL, C1) are dropped; tab and line breaks stay", () => {
    for (const bad of ["\u0000", "\u001b", "\u0007", "\u007f", "\u0090"]) {
      expect(newsInputSchema.parse({ ...base, title: `Gol${bad} do time` }).title, JSON.stringify(bad)).toBe("Gol do time");
    }
    const ok = newsFormSchema.parse({ ...base, fullContent: "Linha 1\r\nLinha 2\tcom tab" });
    expect(ok.fullContent).toBe("Linha 1\nLinha 2\tcom tab");
  });

  it("every direction control (overrides, isolates, marks: U+202E, U+200F, U+061C…) is dropped", () => {
    for (const bad of ["\u202E", "\u202A", "\u2066", "\u2069", "\u200E", "\u200F", "\u061C"]) {
      expect(newsInputSchema.parse({ ...base, subtitle: `abc${bad}gpj.exe` }).subtitle, JSON.stringify(bad)).toBe("abcgpj.exe");
    }
    expect(newsPatchSchema.parse({ author: "Ana\u200FSilva" }).author).toBe("AnaSilva");
  });

  it("other invisible characters (Cf, Hangul fillers) are dropped; line and paragraph separators are line breaks", () => {
    for (const bad of [
      "\u200B",
      "\u200C",
      "\u2060",
      "\u2062",
      "\uFEFF",
      "\u00AD",
      "\u180E",
      "\uFFF9",
      "\u{E0041}",
      "\u{E0001}",
      "\u3164",
      "\u200D",
    ]) {
      expect(newsInputSchema.parse({ ...base, title: `Pal${bad}meiras` }).title, JSON.stringify(bad)).toBe("Palmeiras");
    }
    expect(newsInputSchema.parse({ ...base, title: "Gol\u2028do time" }).title).toBe("Gol\ndo time");
    for (const field of ["fullContent", "category", "mediaDescription", "mediaCaption", "mediaCredit"] as const) {
      expect(newsPatchSchema.parse({ [field]: "x\u00A0\u00A0\u00A0y\u200B" })[field], field).toBe("x y");
      expect(newsFormSchema.parse({ ...base, [field]: "x\u200By" })[field], field).toBe("xy");
    }
    // Only invisible characters: an empty field, refused as one.
    expect(firstMessage(newsInputSchema.safeParse({ ...base, title: "\u200B\u200C" }))).toBe(t.newsForm.titleRequired);
  });

  it("a private-use character is refused, naming the word that holds it", () => {
    expect(firstMessage(newsInputSchema.safeParse({ ...base, title: "Vitória do Palmeiras\uE000 no clássico" }))).toBe(
      t.newsForm.unsaveableCharacter("Título", "Palmeiras\uE000", "U+E000"),
    );
    expect(t.newsForm.unsaveableCharacter("Título", "Palmeiras\uE000", "U+E000")).toMatch(
      /^A palavra “Palmeiras\uE000” \(Título\) tem um caractere que não pode ser salvo \(U\+E000\)/,
    );
    expect(
      firstMessage(
        newsPatchSchema.safeParse({
          body: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Gol do \u{F8FF}Inter" }] }] },
        }),
      ),
    ).toBe(t.newsForm.unsaveableCharacter(t.newsForm.fieldLabel.fullContent, "\u{F8FF}Inter", "U+F8FF"));
  });

  it("emoji keep their joiners and flag tags; Portuguese text, emoji with skin tones and keycaps pass unchanged", () => {
    const fine = [
      "Família 👨\u200D👩\u200D👧 na arquibancada",
      "Orgulho 🏳\uFE0F\u200D🌈 no estádio",
      "Corredora 🏃🏽\u200D♀\uFE0F chega",
      "Inglaterra 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} x Brasil 🇧🇷",
      "Ação, coração, pingüim, àquela — “aspas” 1️⃣ 👍🏿",
    ];
    for (const title of fine) expect(newsInputSchema.parse({ ...base, title }).title, title).toBe(title);
    // Tags outside a flag, a joiner at the end of an emoji: dropped.
    expect(newsInputSchema.parse({ ...base, title: "Gol\u{E0067}\u{E0062}\u{E007F}" }).title).toBe("Gol");
    expect(newsInputSchema.parse({ ...base, title: "Gol 👍\u200D" }).title).toBe("Gol 👍");
  });

  it("an over-long title gets its own message, not 'Título é obrigatório.'", () => {
    expect(firstMessage(newsInputSchema.safeParse({ ...base, title: "x".repeat(301) }))).toBe(t.newsForm.tooLong("Título", 300));
    expect(t.newsForm.tooLong("Título", 300)).toBe("Título pode ter no máximo 300 caracteres.");
    expect(newsInputSchema.safeParse({ ...base, title: "x".repeat(300) }).success).toBe(true);
  });

  it("text is normalised to NFC (a decomposed 'ç' is stored composed)", () => {
    const decomposed = "Sele\u0063\u0327a\u0303o";
    const parsed = newsInputSchema.parse({ ...base, title: decomposed });
    expect(parsed.title).toBe("Seleção");
    expect(parsed.title.length).toBe(7);
  });

  it("a field of the wrong type is a type error, never its text", () => {
    expect(firstMessage(newsPatchSchema.safeParse({ author: 42 }))).toBe(t.api.fieldType("author"));
    expect(newsInputSchema.safeParse({ ...base, title: { $gt: "" } }).success).toBe(false);
  });
});

describe("limits: one number, quoted by the texts", () => {
  it("the size texts say the limits the checks apply, in the specification's words", () => {
    expect(NEWS_MEDIA_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(SPONSOR_IMAGE_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(t.newsForm.mediaTooLarge).toBe("O arquivo é muito grande. Por favor, selecione um arquivo menor que 10MB.");
    expect(t.newsForm.mediaTypes).toBe("JPG, PNG, GIF, MP4, MOV, AVI (máx. 10MB)");
    expect(t.sponsors.tooLarge).toBe("O arquivo é muito grande. Por favor, selecione uma imagem menor que 5MB.");
    expect(t.sponsors.pickHint).toBe("JPG, PNG, GIF ou WebP, até 5MB");
    expect(t.newsList.invalidLimit).toBe(`O parâmetro limit deve ser um número inteiro de 1 a ${API_PAGE_SIZE_MAX}.`);
    expect(checkNewsMediaFile({ type: "video/mp4", size: NEWS_MEDIA_MAX_BYTES })).toBeNull();
    expect(checkNewsMediaFile({ type: "video/mp4", size: NEWS_MEDIA_MAX_BYTES + 1 })).toBe(t.newsForm.mediaTooLarge);
    expect(checkSponsorImageFile({ type: "image/png", size: SPONSOR_IMAGE_MAX_BYTES + 1 })).toBe(t.sponsors.tooLarge);
  });

  it("each text field refuses one character over its limit, naming the limit", () => {
    for (const [field, max] of Object.entries(NEWS_LIMITS)) {
      const fits = newsInputSchema.safeParse({ ...base, [field]: "a".repeat(max) });
      expect(fits.success, field).toBe(true);
      const over = newsInputSchema.safeParse({ ...base, [field]: "a".repeat(max + 1) });
      expect(firstMessage(over), field).toBe(t.newsForm.tooLong(t.newsForm.fieldLabel[field as keyof typeof NEWS_LIMITS], max));
    }
  });
});
