/**
 * Limits shared by the forms, the JSON API, the import and the texts that state them: each number is written here
 * only. No imports, so app/i18n/pt-BR.ts can quote them.
 */

/** Largest news media file: 10 MB (10485760 bytes). */
export const NEWS_MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/** Largest sponsor image: 5 MB (5242880 bytes). */
export const SPONSOR_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The most characters each news text field takes (the form, the API and their messages). */
export const NEWS_LIMITS = {
  title: 300,
  subtitle: 1000,
  fullContent: 100_000,
  category: 60,
  author: 120,
  mediaDescription: 300,
  mediaCaption: 500,
  mediaCredit: 120,
} as const;

/**
 * The structured body (ProseMirror JSON) of a news item: at most this many characters of JSON (under the 512 KiB a
 * submitted field may have), lists and quotes nested at most this deep, links at most this long. Its text is held to
 * `NEWS_LIMITS.fullContent` like the plain text it replaces.
 */
export const NEWS_BODY_MAX_CHARS = 400_000;
export const NEWS_BODY_MAX_DEPTH = 8;
export const NEWS_LINK_MAX_LENGTH = 2000;

/** How many cards the list page shows at a time (a screenful or two). */
export const LIST_PAGE_SIZE = 24;
/** The JSON API's page of news when `?limit=` is not given, and the most it lists. */
export const API_PAGE_SIZE = 50;
export const API_PAGE_SIZE_MAX = 100;

/** Largest body of a form or JSON request that carries no file (sign-in, reset, logout, security): 32 KiB. */
export const FORM_BODY_MAX_BYTES = 32 * 1024;
/**
 * Largest body of a news save sent as JSON or urlencoded, without a file (POST /api/news, PUT/PATCH /api/news/:id, the
 * news form): room for a story at its caps (the body's JSON at NEWS_BODY_MAX_CHARS, up to 3 bytes a character in
 * UTF-8, and the other fields). Counted as it arrives: past it the answer is 413 and nothing more is kept.
 */
export const NEWS_SUBMISSION_MAX_BYTES = 1536 * 1024;
/** How deep arrays and objects of a JSON body may nest (a news body's lists at NEWS_BODY_MAX_DEPTH take ~40). */
export const JSON_MAX_DEPTH = 64;
/** Largest text field of a form that carries a file, unless the form says otherwise: 128 KiB. */
export const UPLOAD_FIELD_MAX_BYTES = 128 * 1024;
/** Largest text field of the news form (the body's JSON is the longest): 512 KiB. */
export const NEWS_FIELD_MAX_BYTES = 512 * 1024;

/** Longest search query read (characters): a search is a few words, not a document. */
export const MAX_QUERY_LENGTH = 200;

/** The longest document id the Firestore import takes (Firestore's own ids are 20 characters). */
export const IMPORT_DOCUMENT_ID_MAX_LENGTH = 128;

/** Whole megabytes, for texts: 10485760 → 10. */
export function megabytes(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}

/**
 * At most one password-reset mail per address in this many seconds (5 min): more requests for it get the same
 * answer and no mail, so nobody fills an inbox, and the link already sent (valid 1 h) still works.
 */
export const RESET_MAIL_INTERVAL_SECONDS = 5 * 60;
/** How long an invitation to the team (/equipe) holds: its link sets a password once, within 72 hours. */
export const INVITE_TTL_SECONDS = 72 * 3600;

/**
 * Request bodies one client address may have arriving at the same time (forms, uploads, API writes). More are
 * answered 429 at once: a few addresses can no longer hold thousands of slow bodies open.
 */
export const BODIES_IN_FLIGHT_PER_ADDRESS = 8;

/**
 * The slowest an upload may arrive, averaged over its last 30 s: 1 KiB/s (a 10 MB file then takes under 3 hours).
 * A body trickled slower (1 byte/s) is cut after 30 s instead of holding its connection for minutes.
 */
export const BODY_MIN_BYTES_PER_SECOND = 1024;

/** Sponsor records: the most characters of a name and of a link. */
export const SPONSOR_LIMITS = { name: 80, link: 2000 } as const;

/** Stories one page of the newsroom's list (/redacao) shows. */
export const NEWSROOM_PAGE_SIZE = 50;
/** The most stories one bulk action of the newsroom's list (publish, unpublish, delete) takes at once. */
export const NEWSROOM_BULK_MAX = 100;
/** The most characters of the note an editor writes when returning a story to its reporter ("Devolver ao repórter"). */
export const REVIEW_NOTE_MAX = 500;
/** The most images one news body may hold (each is a media item of the store). */
export const NEWS_BODY_MAX_IMAGES = 50;
/**
 * The largest autosave request (PUT /api/news/:id/autosave, JSON): room for a body at its cap (NEWS_BODY_MAX_CHARS
 * of JSON, up to 3 bytes a character in UTF-8) and the other fields; a bigger one is refused (413) before parsing.
 */
export const NEWS_AUTOSAVE_MAX_BYTES = NEWS_SUBMISSION_MAX_BYTES;

/** A newsroom member's public profile (/perfil): the most characters of each field. */
export const PROFILE_LIMITS = {
  displayName: 80,
  bio: 400,
  link: 300,
} as const;
/** Largest profile photo: 5 MB (5242880 bytes), like a sponsor's image. */
export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

/** At most this many invitations per admin in `INVITE_RATE_WINDOW_SECONDS` (1 h): /equipe answers 429 beyond. */
export const INVITE_RATE_MAX = 20;
export const INVITE_RATE_WINDOW_SECONDS = 60 * 60;
/** Stories "Leia também" shows at the end of an article (fewer when there are fewer related ones). */
export const RELATED_STORIES_MAX = 4;
/** How long a reader's choice about advertising partners (the consent banner) is kept: 6 months, in seconds. */
export const CONSENT_MAX_AGE_SECONDS = 180 * 24 * 3600;
/**
 * "Leia também" ranks only the newest this-many stories sharing a word with the article: common words match most of
 * the archive, and ranking every match cost ~25 ms (SQLite) to ~240 ms (PostgreSQL) per article at 100 000 news;
 * the newest 1 000 cost 3–8 ms.
 */
export const RELATED_SEARCH_WINDOW = 1000;
/**
 * Live coverage (app/.server/news/live/live-coverage.server.ts): a scoreboard's team names and period text (characters),
 * the highest score; an update's plain text (characters) and its JSON (characters), the image or embed blocks it may
 * carry; updates per page (the article and GET /api/news/:id/updates), pinned updates shown, key events in the
 * "Lances importantes" summary, and updates in the JSON-LD; an update's match minute (0 to `minuteMax`, extra time
 * included) and the added time after it ("45+2": 1 to `addedTimeMax`).
 */
export const LIVE_LIMITS = {
  teamName: 40,
  /** A match's competition, as announced ("Brasileirão Série A"). */
  competition: 60,
  period: 30,
  scoreMax: 999,
  updateText: 5000,
  updateJsonChars: 60_000,
  updateMediaBlocks: 1,
  pageSize: 20,
  pinned: 3,
  /**
   * The summary's events: a match has about 25 (kick-off, half time, second half, full time, the goals, the cards and
   * up to ten substitutions); the newest 40 posted are shown.
   */
  keyEvents: 40,
  jsonLdUpdates: 10,
  minuteMax: 130,
  addedTimeMax: 30,
  /**
   * Updates one member may post in a minute (the shared rate limiter: Redis when set). A match is told in one update
   * every few minutes, a goal in two or three quick ones: 20 leaves room for that and stops a stuck key, a script or a
   * stolen session from flooding every open page (100 posts in 2.7 s reached every reader before this limit).
   */
  postsPerMinute: 20,
} as const;

/** How long a deleted story stays in the newsroom's Lixeira before it is erased for good. */
export const TRASH_DAYS = 30;

/**
 * Open live-update streams (`/events`) one client address may hold: a reader has a few tabs; one address holding
 * thousands is an attack. The cap for the whole process is EVENT_STREAMS_MAX and the open-files limit
 * (server/event-streams.ts).
 */
export const EVENT_STREAMS_PER_ADDRESS = 20;
