import { terminal } from "#app/i18n/pt-BR.ts";
import type { SiteEvent } from "#app/.server/events/event-bus.ts";
import { SQLITE_CHANGE_POLL_MS } from "#app/.server/events/sqlite-event-bus.server.ts";
import { printable } from "./firestore-export.server.ts";
import { shellQuote, terminalText } from "./terminal-text.ts";

/** What `npm run import:firestore` tells the operator at the end (see firestore-import.server.ts). */

export interface CollectionCounts {
  /** Documents written (or, in a dry run, that would be). */
  imported: number;
  /** Documents whose id is already here (or appeared earlier in this export): skipped. */
  existing: number;
  /** Documents refused (one line each says why). */
  refused: number;
  /** Imported documents whose media stays external. */
  externalMedia: number;
  /** Imported documents whose media file was copied from the media folder. */
  copiedMedia: number;
}

export interface ImportSummary {
  news: CollectionCounts;
  sponsors: CollectionCounts;
  /** The original's admins (uid, and the e-mail when the document has a valid one, as registration checks it). */
  admins: Array<{ uid: string; email: string | null }>;
  /** Collections that are not imported, with how many documents each had. */
  ignored: Record<string, number>;
  /** Lines of the export that could not be read at all (bad JSON, bad path). */
  unreadable: number;
  /** Origins the imported external media is shown from (for the operator to review for EXTERNAL_MEDIA_ORIGINS). */
  externalOrigins: string[];
  /** The events published for running servers (none in a dry run or when nothing was written). */
  published: SiteEvent[];
}

/** The origins of the original product's media: Drive's thumbnails and the image servers they redirect to. */
const DRIVE_ORIGINS = ["https://drive.google.com", "https://*.googleusercontent.com"];

/** Whether `origin` is allowed by one of `allowed` (exact, or a `https://*.host` wildcard for its subdomains). */
export function originAllowed(origin: string, allowed: string[]): boolean {
  return allowed.some((entry) => {
    if (entry === origin) return true;
    const wildcard = /^(https?:\/\/)\*\.(.+)$/.exec(entry);
    return Boolean(wildcard && origin.startsWith(wildcard[1]!) && origin.endsWith(`.${wildcard[2]}`));
  });
}

/**
 * The command that gives one of the original's admins an account here: the e-mail as one quoted shell word (an
 * export can hold anything; even a valid address may have a `'`), the uid quoted in the comment.
 */
function adminCommand(admin: ImportSummary["admins"][number]): string {
  return terminal.import.summary.adminCommand(admin.email === null ? null : shellQuote(admin.email), shellQuote(admin.uid));
}

/**
 * The origins external media comes from that EXTERNAL_MEDIA_ORIGINS does not allow yet, one a line, each marked:
 * the Drive ones (what the original product used), plain http (the setting takes https only), anything else to
 * check. Never a line to paste: allowing an origin makes every reader's browser fetch from it.
 */
function originLines(origins: string[], allowed: string[]): string[] {
  const text = terminal.import.summary;
  const missing = origins.filter((origin) => !originAllowed(origin, allowed));
  if (!missing.length) return [];
  const mark = (origin: string) =>
    DRIVE_ORIGINS.includes(origin) ? text.originDrive : origin.startsWith("http:") ? text.originHttp : text.originCheck;
  return [
    "",
    ...text.externalMediaHidden,
    ...missing.map((origin) => `  - ${origin}  ${mark(origin)}`),
    ...text.externalMediaReview,
    ...text.externalMediaCopy,
  ];
}

/** How running servers learn about the import. */
function refreshLines(summary: ImportSummary, context: { database: "sqlite" | "postgres" }): string[] {
  const text = terminal.import.summary;
  if (!summary.published.length) return [];
  // Servers on the same SQLite file see the commits themselves (sqlite-event-bus.server.ts).
  return ["", context.database === "postgres" ? text.postgresNotified : text.sqliteNoticed((2 * SQLITE_CHANGE_POLL_MS) / 1000)];
}

/**
 * What the command prints at the end (pt-BR): counts per collection, the admins to create again, which external
 * media origins to review, and how running servers learn about the import. Every line is terminal-safe.
 */
export function summaryLines(
  summary: ImportSummary,
  context: { dryRun: boolean; externalOrigins: string[]; database: "sqlite" | "postgres" },
): string[] {
  const text = terminal.import.summary;
  const lines: string[] = [text.title(context.dryRun)];
  for (const collection of ["news", "sponsors"] as const) lines.push(`  ${text.counts(collection, summary[collection])}`);
  lines.push(`  ${text.admins(summary.admins.length)}`);
  for (const [collection, count] of Object.entries(summary.ignored)) lines.push(`  ${text.ignored(printable(collection), count)}`);
  if (summary.unreadable) lines.push(`  ${text.unreadable(summary.unreadable)}`);
  if (summary.admins.length) lines.push("", text.adminsTitle, text.adminsHint, ...summary.admins.map((admin) => `  ${adminCommand(admin)}`));
  lines.push(...originLines(summary.externalOrigins, context.externalOrigins), ...refreshLines(summary, context));
  return lines.map(terminalText);
}
