import { describe, expect, it } from "vitest";
import { hasLiveDraftText, liveDraftKey, parseLiveDraft } from "./live-composer-draft.ts";

describe("liveDraftKey", () => {
  it("is per story and per user", () => {
    expect(liveDraftKey("n1", "u1")).toBe("eef:live-draft:u1:n1");
    expect(liveDraftKey("n1", "u2")).not.toBe(liveDraftKey("n1", "u1"));
    expect(liveDraftKey("n2", "u1")).not.toBe(liveDraftKey("n1", "u1"));
    expect(liveDraftKey("n1", null)).toBe("eef:live-draft:anon:n1");
  });
});

describe("hasLiveDraftText", () => {
  it("counts only text that is not blank", () => {
    expect(hasLiveDraftText({ text: "GOL!" })).toBe(true);
    expect(hasLiveDraftText({ text: "  \n\t " })).toBe(false);
    expect(hasLiveDraftText({ text: "" })).toBe(false);
  });
});

describe("parseLiveDraft", () => {
  const savedAt = "2026-11-28T17:00:00.000Z";

  it("reads back what the composer kept", () => {
    const stored = JSON.stringify({ text: "Pênalti para o Grêmio.", keyEvent: true, pinned: false, savedAt });
    expect(parseLiveDraft(stored)).toEqual({ text: "Pênalti para o Grêmio.", keyEvent: true, pinned: false, savedAt });
  });

  it("takes missing or odd flags as unchecked", () => {
    expect(parseLiveDraft(JSON.stringify({ text: "Escanteio.", keyEvent: "sim", savedAt }))).toEqual({
      text: "Escanteio.",
      keyEvent: false,
      pinned: false,
      savedAt,
    });
  });

  it("gives null for nothing, broken JSON, another shape or blank text", () => {
    expect(parseLiveDraft(null)).toBeNull();
    expect(parseLiveDraft("")).toBeNull();
    expect(parseLiveDraft("{not json")).toBeNull();
    expect(parseLiveDraft("null")).toBeNull();
    expect(parseLiveDraft('"texto"')).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ text: 42, savedAt }))).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ text: "Sem data." }))).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ text: "   ", savedAt }))).toBeNull();
  });
});
