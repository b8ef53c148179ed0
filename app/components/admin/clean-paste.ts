import type { ClipboardEvent } from "react";
import { cleanText } from "#app/lib/clean-text.ts";

/**
 * A paste, cleaned in the browser as the server cleans a save (app/lib/clean-text.ts, issue 33): what is pasted from
 * Word or a web page loses its soft hyphens, zero-width spaces, BOMs, direction marks and control characters, and a
 * run of no-break spaces becomes one space, so the field shows what will be saved and nothing is refused for a
 * character nobody can see. The body editor's own cleaning is in clean-pasted-slice.ts: it needs ProseMirror, which
 * this module must not bring to the article page (the live coverage's forms import it).
 */

const TEXT_INPUTS = new Set(["text", "search", "url", "email", "tel", ""]);

/**
 * A form's `onPaste`: a paste into one of its text inputs or text areas is cleaned (a text area keeps its line
 * breaks) and inserted in place of the selection, as a typed text (undo and the field's change handlers work as
 * for any typing). A paste that needs no cleaning, or into anything else (the body editor has its own), is left
 * to the browser.
 */
export function cleanPaste(event: ClipboardEvent<HTMLElement>) {
  const field = event.target;
  const isArea = field instanceof HTMLTextAreaElement;
  if (!isArea && !(field instanceof HTMLInputElement && TEXT_INPUTS.has(field.type))) return;
  const pasted = event.clipboardData.getData("text/plain");
  const cleaned = cleanText(pasted, { lines: isArea });
  if (cleaned === pasted) return;
  event.preventDefault();
  // insertText keeps the browser's undo and fires the input event a typed text does.
  if (document.execCommand("insertText", false, cleaned)) return;
  field.setRangeText(cleaned, field.selectionStart ?? field.value.length, field.selectionEnd ?? field.value.length, "end");
  field.dispatchEvent(new Event("input", { bubbles: true }));
}
