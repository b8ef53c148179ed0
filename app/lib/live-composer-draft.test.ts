import { describe, expect, it } from "vitest";
import { hasLiveDraftText, liveDraftKey, parseLiveDraft } from "./live-composer-draft.ts";
import { plainTextToDoc } from "./rich-text-plain.ts";

const doc = (text: string) => plainTextToDoc(text);
const bold = {
  type: "doc",
  content: [{ type: "paragraph", content: [{ type: "text", text: "GOL!", marks: [{ type: "bold" }] }] }],
};

describe("liveDraftKey", () => {
  it("is per story and per user", () => {
    expect(liveDraftKey("n1", "u1")).toBe("eef:live-draft:u1:n1");
    expect(liveDraftKey("n1", "u2")).not.toBe(liveDraftKey("n1", "u1"));
    expect(liveDraftKey("n2", "u1")).not.toBe(liveDraftKey("n1", "u1"));
    expect(liveDraftKey("n1", null)).toBe("eef:live-draft:anon:n1");
  });
});

describe("hasLiveDraftText", () => {
  it("counts text that is not blank, a minute or an event", () => {
    expect(hasLiveDraftText({ doc: doc("GOL!"), minute: "", eventType: "" })).toBe(true);
    expect(hasLiveDraftText({ doc: doc("  \n\t "), minute: "", eventType: "" })).toBe(false);
    expect(hasLiveDraftText({ doc: { type: "doc", content: [{ type: "paragraph" }] }, minute: " ", eventType: "" })).toBe(false);
    expect(hasLiveDraftText({ doc: doc(""), minute: "45+2", eventType: "" })).toBe(true);
    expect(hasLiveDraftText({ doc: doc(""), minute: "", eventType: "goal" })).toBe(true);
  });
});

describe("parseLiveDraft", () => {
  const savedAt = "2026-11-28T17:00:00.000Z";

  it("reads back what the composer kept: the document with its formatting, the minute and the event", () => {
    const stored = JSON.stringify({ doc: bold, minute: "32", eventType: "goal", keyEvent: true, pinned: false, savedAt });
    expect(parseLiveDraft(stored)).toEqual({ doc: bold, minute: "32", eventType: "goal", keyEvent: true, pinned: false, savedAt });
  });

  it("reads a draft kept as plain text (before the rich-text composer) as its paragraphs", () => {
    const stored = JSON.stringify({ text: "Pênalti para o Grêmio.\n\nVai bater o camisa 10.", keyEvent: true, pinned: false, savedAt });
    expect(parseLiveDraft(stored)).toEqual({
      doc: doc("Pênalti para o Grêmio.\n\nVai bater o camisa 10."),
      minute: "",
      eventType: "",
      keyEvent: true,
      pinned: false,
      savedAt,
    });
  });

  it("takes missing or odd flags as unchecked, and an unknown event as none", () => {
    expect(parseLiveDraft(JSON.stringify({ doc: doc("Escanteio."), keyEvent: "sim", eventType: "penalty", minute: 12, savedAt }))).toEqual({
      doc: doc("Escanteio."),
      minute: "",
      eventType: "",
      keyEvent: false,
      pinned: false,
      savedAt,
    });
  });

  it("gives null for nothing, broken JSON, another shape or nothing typed", () => {
    expect(parseLiveDraft(null)).toBeNull();
    expect(parseLiveDraft("")).toBeNull();
    expect(parseLiveDraft("{not json")).toBeNull();
    expect(parseLiveDraft("null")).toBeNull();
    expect(parseLiveDraft('"texto"')).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ text: 42, savedAt }))).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ doc: { type: "paragraph" }, savedAt }))).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ text: "Sem data." }))).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ text: "   ", savedAt }))).toBeNull();
    expect(parseLiveDraft(JSON.stringify({ doc: doc(""), minute: "", eventType: "", savedAt }))).toBeNull();
  });
});
