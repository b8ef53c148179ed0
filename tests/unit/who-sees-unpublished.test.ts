import { describe, expect, it } from "vitest";
import { t } from "#app/i18n/newsroom.ts";
import { ROLES, SEES_UNPUBLISHED, seesUnpublished } from "#app/lib/roles.ts";

/**
 * What the newsroom is told about who sees a story readers do not (a draft, a story in review, a scheduled one):
 * the article's banners and the news form's messages. The words come from the rule the server applies
 * (SEES_UNPUBLISHED, read by `newsroomAccess`), never from a guess: every role the rule lets see it is named, and
 * no other.
 */
const PLURAL = { reporter: "repórteres", editor: "editores", admin: "administradores" } as const;

const TEXTS = {
  draftBanner: t.article.draftBanner,
  reviewBanner: t.article.reviewBanner,
  scheduledBanner: t.article.scheduledBanner("1 de dezembro de 2026, 10:00"),
  draftSaved: t.newsForm.draftSaved,
  unpublished: t.newsForm.unpublished,
};

describe("quem vê uma notícia que os leitores não veem", () => {
  it("each text names the roles the rule lets see it, and only those", () => {
    for (const [name, text] of Object.entries(TEXTS)) {
      for (const role of ROLES) expect(text.includes(PLURAL[role]), `${name}, ${role}: "${text}"`).toBe(seesUnpublished(role));
    }
  });

  it("the rule is the whole newsroom: reporters too (not 'só administradores')", () => {
    expect(SEES_UNPUBLISHED).toBe("reporter");
    expect(ROLES.every(seesUnpublished)).toBe(true);
    expect(seesUnpublished(null)).toBe(false);
    for (const text of Object.values(TEXTS)) expect(text).not.toMatch(/só administradores|Só administradores/);
  });

  it("the words, as the newsroom reads them", () => {
    expect(TEXTS.draftBanner).toBe(
      "Rascunho: só a redação (repórteres, editores e administradores) vê esta notícia. Para os leitores ela não existe.",
    );
    expect(TEXTS.scheduledBanner).toBe(
      "Agendada para 1 de dezembro de 2026, 10:00: só a redação (repórteres, editores e administradores) vê esta notícia até lá.",
    );
    expect(TEXTS.draftSaved).toBe("Rascunho salvo. Só a redação (repórteres, editores e administradores) vê esta notícia.");
    expect(TEXTS.unpublished).toBe(
      "Notícia despublicada: agora é um rascunho, e só a redação (repórteres, editores e administradores) vê esta notícia.",
    );
  });
});
