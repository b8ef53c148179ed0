import { t } from "#app/i18n/newsroom.ts";
import { cleanText, findUnsaveableCharacter } from "./clean-text.ts";
import { foldToSlug } from "./slug.ts";

/** How many clubs one story may be tagged with (a match, a transfer between two clubs, a round-up). */
export const TEAMS_PER_STORY = 6;
/** The longest club name the list takes ("Sport Club Corinthians Paulista" is 31). */
export const TEAM_NAME_MAX = 60;

/** A club of the desk's list, as pages and forms show it. */
export interface Team {
  slug: string;
  name: string;
}

/**
 * The key two spellings of one club share: accents, case and punctuation folded ("São Paulo", "sao paulo" and
 * "SAO-PAULO" are one). Empty when the name has no letter or digit.
 */
export function teamNameKey(name: string): string {
  return foldToSlug(name);
}

/**
 * A club name as typed, cleaned (invisible characters a paste brings are removed) and checked: the name, or the
 * pt-BR reason it cannot be saved. The browser and the server check alike.
 */
export function checkTeamName(raw: unknown): { name: string } | { error: string } {
  const name = cleanText(typeof raw === "string" ? raw : "", { lines: false }).trim();
  if (!name) return { error: t.teams.nameRequired };
  if (findUnsaveableCharacter(name)) return { error: t.teams.nameInvalid };
  if (name.length > TEAM_NAME_MAX) return { error: t.teams.nameTooLong(TEAM_NAME_MAX) };
  if (!teamNameKey(name)) return { error: t.teams.nameUnreadable };
  return { name };
}

/** The edit page's "Times" panel: its anchor, and the address parameter its plain form comes back with. */
export const TEAMS_FORM_ANCHOR = "times";
export const TEAMS_FORM_PARAM = "times";

/** What the plain form's outcome (`?times=`) says: saved, or why not. */
export function teamsFormNotice(outcome: string | null): { kind: "success" | "error"; message: string } | null {
  if (!outcome) return null;
  if (outcome === "salvos") return { kind: "success", message: t.teams.saved };
  if (outcome === "teams_too_many") return { kind: "error", message: t.teams.tooMany(TEAMS_PER_STORY) };
  if (outcome === "team_unknown") return { kind: "error", message: t.teams.unknown };
  return { kind: "error", message: t.teams.invalid };
}
