import { describe, expect, it } from "vitest";
import { t } from "#app/i18n/newsroom.ts";
import { profileFieldsSchema } from "#app/lib/profile-schema.ts";
import { sponsorFieldsSchema } from "#app/lib/sponsor-schema.ts";

/** A sponsor's name and a member's profile are cleaned like the newsroom's texts (app/lib/clean-text.ts), not refused. */
describe("names and profiles: cleaned, never refused for what nobody sees", () => {
  it("a sponsor's name pasted with a soft hyphen, a zero-width space, a BOM, no-break spaces and an override keeps only its letters", () => {
    const parsed = sponsorFieldsSchema.parse({ name: "\uFEFFBanco\u00A0\u00A0Pal\u00ADmeiras\u200B\u202E" });
    expect(parsed.name).toBe("Banco Palmeiras");
  });

  it("a profile's name and bio are cleaned; the bio keeps its line breaks", () => {
    const parsed = profileFieldsSchema.parse({ displayName: "Ana\u200B Lima\u00AD", bio: "Repórter\r\nde vôlei\u200B\u0000." });
    expect(parsed.displayName).toBe("Ana Lima");
    expect(parsed.bio).toBe("Repórter\nde vôlei.");
  });

  it("a name made only of characters that draw nothing is a blank name: refused as one", () => {
    const sponsor = sponsorFieldsSchema.safeParse({ name: "\u3164\u200B\u115F" });
    expect(sponsor.success).toBe(false);
    expect(sponsor.error?.issues.map((issue) => issue.message)).toEqual([t.sponsors.nameRequired]);
    const profile = profileFieldsSchema.safeParse({ displayName: "\u3164\uFEFF" });
    expect(profile.error?.issues.map((issue) => issue.message)).toEqual([t.profile.displayNameRequired]);
  });

  it("a private-use character, which cannot be cleaned without changing the name, is refused naming its word", () => {
    const parsed = sponsorFieldsSchema.safeParse({ name: "Clube\uE000 Atlético" });
    expect(parsed.error?.issues[0]?.message).toBe(t.newsForm.unsaveableCharacter(t.sponsors.nameLabel, "Clube\uE000", "U+E000"));
  });
});
