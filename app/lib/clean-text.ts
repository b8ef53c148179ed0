/**
 * The one text normalizer of the newsroom (issue 33): what a reporter pastes from Word, a web page or a phone
 * keyboard is cleaned, never refused for a character nobody can see. The body editor and the plain inputs clean a
 * paste with it in the browser; the validation schemas (app/lib/news-schema.ts, app/lib/rich-text-schema.ts) and the
 * server's live update, scoreboard and review note checks run it again on save, so the JSON API gets the same.
 *
 * `cleanText` removes, without asking:
 * - soft hyphens, zero-width spaces, non-joiners and joiners, word joiners, BOMs, invisible operators, interlinear
 *   annotations, tag characters and every other format character (Unicode category Cf), including the direction
 *   marks (U+200E, U+200F, U+061C) and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 *   U+2066–U+2069). Two Cf uses are kept, only where they build an emoji: the zero-width joiner between two
 *   pictographs (👨‍👩‍👧, 🏳️‍🌈, 🏃‍♀️) and the tag characters of a subdivision flag (🏴 England, Scotland, Wales);
 * - the Hangul fillers (letters that draw nothing), the object replacement character (U+FFFC, what an image pasted
 *   from Word leaves behind), noncharacters and lone surrogate halves (no character at all);
 * - C0 control characters other than tab and line feed, C1 control characters and DEL (NUL, ESC…). Carriage returns,
 *   NEL and the line/paragraph separators become a line feed where the field keeps lines, else a space;
 * - any run of spaces holding a no-break space or another Unicode space (U+00A0, U+202F, U+2007, U+2000–U+200A,
 *   U+3000…) becomes one plain space; a run of plain spaces alone is left to the field's own rule;
 * and composes the text (NFC), so an accent typed as a separate mark is the same letter as a precomposed one.
 *
 * What cannot be cleaned without changing what the text says is refused (`findUnsaveableCharacter`): a private-use
 * character (U+E000–U+F8FF and the supplementary private-use planes) is a symbol only one font or app knows (a logo,
 * a team crest from a keyboard app, an icon font), shown as something else or nothing on every other device; dropping
 * it would silently change the word. The refusal names the word that holds it. Unassigned code points are kept: one
 * may be an emoji newer than the server's Unicode tables.
 */

/** A subdivision flag: the black flag, two to six tag letters or digits, the cancel tag. */
const TAG_FLAG = String.raw`\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}`;
/** A zero-width joiner inside an emoji ZWJ sequence: after a pictograph (with its presentation or skin tone), before one. */
const EMOJI_JOINER = String.raw`(?<=\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})`;

/** The 66 noncharacters: U+FDD0–U+FDEF and the last two code points of every plane. */
const NONCHARACTERS = `\\uFDD0-\\uFDEF${Array.from({ length: 17 }, (_, plane) => {
  const base = (plane * 0x10000 + 0xfffe).toString(16);
  return `\\u{${base}}\\u{${(plane * 0x10000 + 0xffff).toString(16)}}`;
}).join("")}`;

/** Every character dropped outright (line breaks are handled before). */
const DROPPED = String.raw`[\p{Cf}\p{Cs}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\u115F\u1160\u3164\uFFA0\uFFFC${NONCHARACTERS}]`;

/** The emoji parts kept (first two groups) or a character to drop. */
const CLEAN = new RegExp(`(${TAG_FLAG})|(${EMOJI_JOINER})|${DROPPED}`, "gu");
/** Line breaks that are not a plain line feed: CR LF, CR, NEL, the line and paragraph separators. */
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;
/** A run of spaces (Unicode category Zs, tab aside). */
const SPACE_RUN = /\p{Zs}+/gu;
/** A private-use character. */
const UNSAVEABLE = /\p{Co}/u;

export interface CleanOptions {
  /** Whether the field keeps line breaks (a body, a note): then they become "\n"; otherwise a space. */
  lines?: boolean;
}

/** `text` without the characters nobody can see or that change how it reads (see above), composed (NFC). */
export function cleanText(text: string, { lines = true }: CleanOptions = {}): string {
  const broken = text.replace(LINE_BREAKS, "\n");
  return (lines ? broken : broken.replace(/\n/g, " "))
    .replace(CLEAN, (_match, flag: string | undefined, joiner: string | undefined) => flag ?? joiner ?? "")
    .replace(SPACE_RUN, (run) => (/[^ ]/.test(run) ? " " : run))
    .normalize("NFC");
}

export interface UnsaveableCharacter {
  /** The word (the run of text between spaces) that holds it, at most 40 characters around it. */
  word: string;
  /** The character as `U+E000` (four to six hex digits). */
  codePoint: string;
}

const codePointOf = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The first character `cleanText` cannot clean away (a private-use character) in `text`, with its word, or null. */
export function findUnsaveableCharacter(text: string): UnsaveableCharacter | null {
  const found = UNSAVEABLE.exec(text);
  if (!found) return null;
  const start = text.slice(0, found.index).search(/\S*$/);
  const end = found.index + found[0].length + (text.slice(found.index + found[0].length).match(/^\S*/)?.[0].length ?? 0);
  const before = [...text.slice(start, found.index)];
  const after = [...text.slice(found.index + found[0].length, end)];
  // A very long "word" (a link, a run without spaces) is shown as the 20 characters either side.
  const word = `${before.length > 20 ? `…${before.slice(-20).join("")}` : before.join("")}${found[0]}${after.length > 20 ? `${after.slice(0, 20).join("")}…` : after.join("")}`;
  return { word, codePoint: codePointOf(found[0]) };
}
