/**
 * Text the import prints to the operator's terminal comes partly from the export it reads, which anyone who could
 * write to the original database may have shaped. Two rules keep it inert:
 *
 * - `terminalText`: no terminal control gets through. Escape sequences (CSI `ESC [ … m`, OSC `ESC ] … BEL` such as
 *   window titles or hyperlinks, DCS/APC/PM/SOS strings, two-character escapes, and the C1 CSI) become one `?`, and
 *   so does every other C0 or C1 control (line breaks and carriage returns included: one value cannot forge another
 *   line), every format character (Cf: direction marks, overrides and isolates, zero-width characters) and the
 *   line and paragraph separators.
 * - `shellQuote`: a value printed as part of a command line is one single-quoted word, whatever it holds.
 */

const ESCAPE_SEQUENCE =
  /\u001B(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001B\u009C]*(?:\u0007|\u001B\\|\u009C)?|[PX^_][^\u001B\u009C]*(?:\u001B\\|\u009C)?|[ -/]*[0-~]?)|\u009B[0-?]*[ -/]*[@-~]?|[\u0090\u0098\u009D\u009E\u009F][^\u001B\u009C\u0007]*(?:\u0007|\u001B\\|\u009C)?/g;
const UNPRINTABLE = /[\u0000-\u001F\u007F-\u009F\p{Cf}\u2028\u2029]/gu;

/** `text` safe to print on a terminal: escape sequences and control, format and separator characters shown as `?`. */
export function terminalText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "?").replace(UNPRINTABLE, "?");
}

/** `value` as one POSIX shell word: in single quotes, each `'` written as `'\''` (nothing inside is expanded). */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
