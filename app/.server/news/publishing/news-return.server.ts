import { t } from "#app/i18n/newsroom.ts";
import { cleanText, findUnsaveableCharacter } from "#app/lib/clean-text.ts";
import { REVIEW_NOTE_MAX } from "#app/lib/limits.ts";
import { FieldsError } from "#app/.server/errors.ts";
import { type NewsEditorContext, saveChanges } from "#app/.server/news/editor/news-change.server.ts";
import { type Actor, requireMayReturn } from "#app/.server/auth/permissions.server.ts";
import type { SavedNews } from "#app/.server/news/editor/news-save.server.ts";

/**
 * "Devolver ao repórter": a story in review goes back to a draft (no longer in review), as a new version, with the
 * editor's note recorded (its history, the reporter's form) and mailed to the reporter after the commit. Editors
 * and admins only (403 `return_forbidden`); the note is cleaned (app/lib/clean-text.ts), required, at most
 * REVIEW_NOTE_MAX characters, with no character that cannot be cleaned (400 under `note`); a story not in review is a
 * 409 `not_in_review`; with `version`, a stale one is a 409 conflict.
 */
export async function returnToReporter(context: NewsEditorContext, id: string, note: string, actor: Actor, version?: number): Promise<SavedNews> {
  requireMayReturn(actor);
  // Cleaned like every newsroom text (app/lib/clean-text.ts): NUL, ESC, direction marks and the like are dropped.
  const text = cleanText(note).trim();
  if (!text) throw new FieldsError("note_required", { note: [t.review.noteRequired] });
  if ([...text].length > REVIEW_NOTE_MAX) throw new FieldsError("note_too_long", { note: [t.review.noteTooLong(REVIEW_NOTE_MAX)] });
  const unsaveable = findUnsaveableCharacter(text);
  if (unsaveable) {
    throw new FieldsError("note_invalid", { note: [t.newsForm.unsaveableCharacter(t.review.noteLabel, unsaveable.word, unsaveable.codePoint)] });
  }
  return saveChanges(context, {
    id,
    file: null,
    removeMedia: false,
    publishing: { status: "draft", version },
    actor,
    changes: () => ({}),
    mediaText: {},
    returnNote: text,
  });
}
