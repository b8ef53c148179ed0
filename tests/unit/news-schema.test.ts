import { describe, expect, it } from "vitest";
import { t } from "../../app/i18n/pt-BR.ts";
import { API_PAGE_SIZE_MAX, NEWS_LIMITS, NEWS_MEDIA_MAX_BYTES, SPONSOR_IMAGE_MAX_BYTES } from "../../app/lib/limits.ts";
import { checkNewsMediaFile, checkSponsorImageFile, newsFormSchema, newsInputSchema, newsPatchSchema } from "../../app/lib/news-schema.ts";

const base = { title: "Título", subtitle: "Sub", fullContent: "Texto", category: "Futebol" };
const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe("news text fields: what is refused, with which message", () => {
  it("control characters (NUL, ESC, BEL, DEL) are refused; tab and line breaks stay", () => {
    for (const bad of ["\u0000", "\u001b[31m", "\u0007", "\u007f", "\u0085"]) {
      expect(firstMessage(newsInputSchema.safeParse({ ...base, title: `Gol${bad}` })), JSON.stringify(bad)).toBe(
        t.newsForm.controlCharacters("Título"),
      );
    }
    const ok = newsFormSchema.parse({ ...base, fullContent: "Linha 1\r\nLinha 2\tcom tab" });
    expect(ok.fullContent).toBe("Linha 1\nLinha 2\tcom tab");
  });

  it("direction overrides (U+202E…) are refused; a BOM or zero-width text alone counts as empty", () => {
    expect(firstMessage(newsInputSchema.safeParse({ ...base, subtitle: "abc\u202Egpj.exe" }))).toBe(t.newsForm.directionCharacters("Subtítulo"));
    expect(firstMessage(newsInputSchema.safeParse({ ...base, title: "\u200B\u200C\uFEFF" }))).toBe(t.newsForm.titleRequired);
    expect(firstMessage(newsPatchSchema.safeParse({ category: "\u200B" }))).toBe(t.newsForm.onlyInvisible("Categoria"));
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
