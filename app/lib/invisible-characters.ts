/**
 * Characters a news text must not carry: they show nothing (or nothing of themselves) and change how the text reads,
 * sorts, searches or is copied. Refused, naming the field, by the sponsor and profile schemas. The newsroom's texts
 * (a story, live updates, review notes) are cleaned of them instead (app/lib/clean-text.ts, issue 33). See
 * SECURITY.md ("Caracteres invisíveis").
 *
 * - `control`: C0 and C1 control characters other than tab and line feed / carriage return, and DEL.
 * - `direction`: every bidirectional control: the embeddings, overrides and isolates (U+202A–U+202E,
 *   U+2066–U+2069) and the direction marks (U+200E, U+200F, U+061C). Portuguese never needs them.
 * - `invisible`: every other format character (Unicode category Cf: zero-width space and non-joiner, word joiner,
 *   invisible operators, BOM, soft hyphen, interlinear annotations, tag characters…), the line and paragraph
 *   separators U+2028 and U+2029 (a line break that is not one) and the Hangul fillers (letters that draw nothing,
 *   a known way to make a "blank" name).
 *
 * Two Cf uses are kept, only where they build an emoji: the zero-width joiner (U+200D) between two pictographs
 * (👨‍👩‍👧, 🏳️‍🌈, 🏃‍♀️) and the tag characters of a subdivision flag (🏴 England, Scotland, Wales). Anywhere else they
 * are refused like the rest.
 */

import { t } from "../i18n/newsroom.ts";

export type RefusedCharacterKind = "control" | "direction" | "invisible";

export interface RefusedCharacter {
  kind: RefusedCharacterKind;
  /** The first refused character as `U+200F` (four to six hex digits). */
  codePoint: string;
}

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
const DIRECTION = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const INVISIBLE = /[\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0]/u;

/** A zero-width joiner inside an emoji ZWJ sequence: after a pictograph (with its presentation or skin tone), before one. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;
/** A subdivision flag: the black flag, two to six tag letters or digits, the cancel tag. */
const TAG_FLAG = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}/gu;

const codePointOf = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The first character of `text` a news field refuses (control first, then direction, then invisible), or null. */
export function findRefusedCharacter(text: string): RefusedCharacter | null {
  const control = CONTROL.exec(text);
  if (control) return { kind: "control", codePoint: codePointOf(control[0]) };
  const direction = DIRECTION.exec(text);
  if (direction) return { kind: "direction", codePoint: codePointOf(direction[0]) };
  // The emoji's own joiners and tags are taken out before looking (the flag keeps its visible black flag).
  const invisible = INVISIBLE.exec(text.replace(TAG_FLAG, "\u{1F3F4}").replace(EMOJI_JOINER, ""));
  if (invisible) return { kind: "invisible", codePoint: codePointOf(invisible[0]) };
  return null;
}

/**
 * The pt-BR message naming `label` when `text` holds a refused character, else null: the check each news text field
 * runs (and a structured body can run on each text node).
 */
export function refuseInvisible(label: string, text: string): string | null {
  const found = findRefusedCharacter(text);
  if (!found) return null;
  if (found.kind === "control") return t.newsForm.controlCharacters(label);
  if (found.kind === "direction") return t.newsForm.directionCharacters(label);
  return t.newsForm.invisibleCharacters(label, found.codePoint);
}
