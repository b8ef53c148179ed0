import type { ColumnType, Insertable, Selectable } from "kysely";
import type { LiveEventType } from "#app/lib/live-coverage.ts";

/**
 * Table types. Timestamps are ISO-8601 UTC strings (`2026-11-22T01:52:35.123Z`): they sort correctly as text
 * and read back identically on SQLite and PostgreSQL. Booleans are stored as 0/1 for the same reason.
 */
export interface Database {
  news: NewsTable;
  news_revisions: NewsRevisionsTable;
  sponsors: SponsorsTable;
  media: MediaTable;
  admins: AdminsTable;
  /** Accounts `admin create` found existing: admin only once the address's owner reset the password (ownership.server.ts). */
  ownership_checks: OwnershipChecksTable;
  app_settings: AppSettingsTable;
  /** The Google Drive store's map of our media keys to Drive file ids (MEDIA_STORE=gdrive). */
  drive_files: DriveFilesTable;
  news_reads: NewsReadsTable;
  /** What an editor typed in a story's form and did not save yet (the form's autosave), one row per story per user. */
  news_autosaves: NewsAutosavesTable;
  /** The review queue's steps of each story: submitted, approved, returned (with the note). */
  news_review_events: NewsReviewEventsTable;
  /** A story's live coverage updates (migration 2026-11-28-301). */
  news_live_updates: NewsLiveUpdatesTable;
  taxonomy_terms: TaxonomyTermsTable;
  /** Invitations to the team an admin sent from /equipe, waiting for the owner to set a password (team.server.ts). */
  member_invites: MemberInvitesTable;
  /** The team's log: who gave, changed or removed whose role, and when. */
  member_changes: MemberChangesTable;
  /** A newsroom member's public profile: name shown, bio, photo, links (profiles.server.ts). */
  member_profiles: MemberProfilesTable;
  author_slug_aliases: AuthorSlugAliasesTable;
  /** The section menu as an admin arranged it (/secoes): order and hidden categories, by slug. */
  section_settings: SectionSettingsTable;
  front_page_picks: FrontPagePicksTable;
  /**
   * The words published stories use (folded), for the search's typo correction (migration 2026-11-29-101). SQLite adds
   * an `id` and a trigram index table, `search_word_trigrams`, the search service queries in SQL.
   */
  search_words: SearchWordsTable;
  /** The clubs the desk keeps (/times), and which clubs each story is about (migration 2026-11-29-301). */
  teams: TeamsTable;
  news_teams: NewsTeamsTable;
  /** Web Push: the browsers that asked for alerts, what each follows, what the desk sent (migration 2026-11-29-401). */
  push_subscriptions: PushSubscriptionsTable;
  push_topics: PushTopicsTable;
  push_alerts: PushAlertsTable;
  /** Owned by Better Auth (its own migrations); read here for admin listings. */
  user: UserTable;
  session: SessionTable;
}

/** Our key → Drive file id (migration 2026-11-22-002-drive-files). */
export interface DriveFilesTable {
  key: string;
  file_id: string;
  size: number;
  created_at: string;
}

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: number;
  image: string | null;
  createdAt: string;
  updatedAt: string;
  /** The two-factor plugin's flag (0/1, true/false on PostgreSQL; null before it ran). */
  twoFactorEnabled: number | null;
}

export interface SessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: string;
  createdAt: string;
}

/** Migration 2026-11-27-701-team. */
export interface MemberInvitesTable {
  user_id: string;
  role: "reporter" | "editor" | "admin";
  invited_by: string | null;
  invited_at: string;
  expires_at: string;
}

export interface MemberChangesTable {
  id: string;
  at: string;
  actor_id: string | null;
  actor_email: string | null;
  target_id: string;
  target_email: string | null;
  /** 'grant': access given by the admin command line (`create`, `grant`). */
  /** 'publishes_on' / 'publishes_off': the "publica sem revisão" right given or taken (roles: the member's role). */
  action: "invite" | "accept" | "grant" | "role" | "revoke" | "cancel" | "publishes_on" | "publishes_off";
  from_role: string | null;
  to_role: string | null;
}

/** Migration 2026-11-28-501-section-settings. */
export interface SectionSettingsTable {
  slug: string;
  position: number | null;
  hidden: number;
  updated_at: string;
  updated_by: string | null;
}

/** Migration 2026-11-29-001-front-page: the stories an editor placed at the top of the home. */
export interface SearchWordsTable {
  word: string;
}

export interface TeamsTable {
  /** The club page's address (/time/{slug}): fixed when the club is added. */
  slug: string;
  name: string;
  /** The name folded (teamNameKey): unique, so one club has one entry whatever its spelling. */
  name_key: string;
  created_at: string;
  created_by: string | null;
}

export interface PushSubscriptionsTable {
  id: string;
  /** The push service's address for this browser (unique): whoever knows it may change what it follows. */
  endpoint: string;
  /** The browser's public key (P-256, base64url) and auth secret its messages are encrypted with. */
  p256dh: string;
  auth: string;
  created_at: string;
  updated_at: string;
}

export interface PushTopicsTable {
  subscription_id: string;
  /** `geral`, `secao:{slug}`, `time:{slug}` or `jogo:{news id}` (app/lib/push-topics.ts). */
  topic: string;
}

export interface PushAlertsTable {
  id: string;
  /** `story:{news id}` or `update:{update id}`: each is sent once. */
  alert_key: string;
  news_id: string;
  update_id: string | null;
  title: string;
  body: string;
  /** Where tapping it leads (a path of this site). */
  url: string;
  created_at: string;
  created_by: string | null;
  /** When the last browser was tried (null: still sending, or the process stopped before). */
  finished_at: string | null;
  recipients: ColumnType<number, number | undefined, number>;
  delivered: ColumnType<number, number | undefined, number>;
  removed: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
}

export interface NewsTeamsTable {
  news_id: string;
  team_slug: string;
}

export interface FrontPagePicksTable {
  /** 1: the manchete; 2 and 3: beside it. */
  position: number;
  news_id: string;
  /** When the choice stops holding, or null (until changed). */
  until: string | null;
  picked_at: string;
  picked_by: string | null;
}

export interface AppSettingsTable {
  key: string;
  value: string;
}

export interface NewsTable {
  id: string;
  title: string;
  subtitle: string;
  full_content: string;
  /**
   * The body as structured content (ProseMirror JSON, app/lib/rich-text.ts); `full_content` is its plain text. Null
   * only for a row written as plain text alone (the bulk seed): it reads as that text's paragraphs.
   */
  body: ColumnType<string | null, string | null | undefined, string | null>;
  category: string;
  author: string;
  /** `category` and `author` folded (accents, case) for /categoria/{slug} and /autor/{slug}; see taxonomy.server.ts. */
  category_slug: ColumnType<string, string | undefined, string>;
  author_slug: ColumnType<string, string | undefined, string>;
  is_highlighted: ColumnType<number, number, number>;
  media_id: string | null;
  created_at: string;
  updated_at: string;
  /** Readers only ever see 'published'. */
  status: ColumnType<StoredNewsStatus, StoredNewsStatus | undefined, StoredNewsStatus>;
  /** The publication date (planned, for a scheduled item; when it became a draft, for a draft): lists sort on it. */
  published_at: string;
  /** When it first went out, or null (never published): a story published again takes it back (2026-11-28-961). */
  first_published_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last save that changed its title, subtitle or body, or null: "Atualizado em" (2026-11-28-961). */
  text_updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When it went to the Lixeira (then it is a draft the newsroom's lists leave out), or null (2026-11-28-981). */
  deleted_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who moved it there (a user id; no foreign key), or null. */
  deleted_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Goes up on every save; a save naming an older version is a conflict. */
  version: ColumnType<number, number | undefined, number>;
  /** Who saved the current version (a user id), or null (imports, seeds, scripts, the scheduler). */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account that created the story; null for existing stories and those of imports, seeds and scripts (editors only). */
  owner_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the draft was sent for review (shown as status `review`); null otherwise. The status stays 'draft'. */
  review_requested_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The team member the author is (migration 2026-11-28-101), or null: a free-text author. */
  author_user_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Live coverage (migration 2026-11-28-301; app/.server/news/live/live-coverage.server.ts): null, 'live' or 'ended'. */
  live_coverage: ColumnType<"live" | "ended" | null, "live" | "ended" | null | undefined, "live" | "ended" | null>;
  live_started_at: ColumnType<string | null, string | null | undefined, string | null>;
  live_ended_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The match's scoreboard as JSON text, or null. */
  live_scoreboard: ColumnType<string | null, string | null | undefined, string | null>;
  /** The coverage's last change (an update, the scoreboard): feeds and sitemaps read it as the story's last change. */
  live_updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** A match announced before it starts: its kickoff (the coverage turns live by itself then; emptied), or null (2026-11-29-201). */
  live_kickoff_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The match's competition ("Brasileirão"), or null. */
  live_competition: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Migration 2026-11-28-101-member-profiles. */
export interface MemberProfilesTable {
  user_id: string;
  display_name: string;
  /** The display name's slug (taxonomy.server.ts): the /autor/{slug} of the stories the member signs. Unique. */
  slug: string;
  bio: ColumnType<string, string | undefined, string>;
  photo_media_id: string | null;
  link_x: string | null;
  link_instagram: string | null;
  link_site: string | null;
  updated_at: string;
}

/** Migration 2026-11-28-951-author-renames: an /autor/{slug} a member was listed under before a rename. */
export interface AuthorSlugAliasesTable {
  slug: string;
  user_id: string;
  created_at: string;
}

/** The first spelling used of each category and author slug: the one shown. */
export interface TaxonomyTermsTable {
  kind: "category" | "author";
  slug: string;
  name: string;
  created_at: string;
}

/** Reads of a news item in one hour ("Mais lidas"); see docs/decisions/006-read-counts.md. */
export interface NewsReadsTable {
  news_id: string;
  /** ISO-8601 UTC start of the hour: `2026-11-25T14:00:00.000Z`. */
  hour: string;
  reads: number;
}

/** A story's form as one editor left it (migration 2026-11-27-101): never read by reader pages. */
export interface NewsAutosavesTable {
  news_id: string;
  user_id: string;
  title: string;
  subtitle: string;
  /** The structured body (ProseMirror JSON text). */
  body: string;
  category: string;
  author: string;
  media_description: string;
  media_caption: string;
  media_credit: string;
  is_highlighted: number;
  /** The schedule field as typed ("2026-11-25T10:00", or empty). */
  publish_at: string;
  /** The story's version the form was opened on. */
  base_version: number;
  saved_at: string;
}

/** A version of a news item that a later save replaced: what it said, who saved it and when. */
export interface NewsRevisionsTable {
  id: string;
  news_id: string;
  version: number;
  title: string;
  subtitle: string;
  full_content: string;
  /**
   * The body as structured content (ProseMirror JSON, app/lib/rich-text.ts); `full_content` is its plain text. Null
   * only for a row written as plain text alone (the bulk seed): it reads as that text's paragraphs.
   */
  body: ColumnType<string | null, string | null | undefined, string | null>;
  category: string;
  author: string;
  is_highlighted: number;
  media_id: string | null;
  saved_by: string | null;
  saved_at: string;
  /** The version's status and publication date (migration 2026-11-26-700); null on revisions written before it. */
  status: ColumnType<StoredNewsStatus | null, StoredNewsStatus | null | undefined, StoredNewsStatus | null>;
  published_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A story's status as stored: "review" is a draft sent for review (app/lib/news-view.ts: NewsStatus, what the pages show). */
export type StoredNewsStatus = "draft" | "scheduled" | "published";

export interface SponsorsTable {
  id: string;
  media_id: string;
  created_at: string;
  /** Shown as the footer logo's text. */
  name: string;
  /** https only, or null. */
  link: string | null;
  /** Display order, 1 = first. */
  position: number;
  /** Calendar dates (YYYY-MM-DD, site time zone, both included) between which readers see the sponsor; null = open. */
  active_from: string | null;
  active_until: string | null;
}

export interface MediaTable {
  id: string;
  kind: "image" | "video";
  /** Which MediaStore holds the files (`local`, later `s3`, `gdrive`). */
  store: string;
  /** Object key of the original (or only) file. Keys are content-hashed and never reused. */
  key: string;
  mime_type: string;
  size_bytes: number;
  /** Pixels of an image, or of a video's frames (null for a video whose poster could not be made, or older). */
  width: number | null;
  height: number | null;
  /**
   * JSON array of image variants: `[{ "width": 400, "format": "webp", "key": "…", "mimeType": "image/webp" }]`. For a
   * video, the variants of its poster frame (JPEG and WebP); `[]` when it has none.
   */
  variants: string;
  /** A video's length in milliseconds, read with ffmpeg on upload (null for images and when unknown). */
  duration_ms: number | null;
  original_name: string | null;
  /** What the image shows, for screen readers (its `alt`); required for new images, null on older ones. */
  description: ColumnType<string | null, string | null | undefined, string | null>;
  /** Shown under the media. */
  caption: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who made it, shown as "Foto: {credit}". */
  credit: ColumnType<string | null, string | null | undefined, string | null>;
  /** The point a crop keeps, in percent of the width and height (0–100); both null: the centre. */
  focus_x: ColumnType<number | null, number | null | undefined, number | null>;
  focus_y: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
}

export interface OwnershipChecksTable {
  user_id: string;
  requested_at: string;
  proven_at: string | null;
}

/** One step of a story through the review queue (migration 2026-11-27-801-review-events). */
export interface NewsReviewEventsTable {
  id: string;
  news_id: string;
  /** The story's version this step created. */
  version: number;
  kind: "submitted" | "approved" | "returned" | "corrected" | "published_directly";
  actor_id: string | null;
  /** The editor's note to the reporter ('returned' only). */
  note: string | null;
  created_at: string;
}

/** One update of a story's live coverage (migration 2026-11-28-301). */
export interface NewsLiveUpdatesTable {
  id: string;
  news_id: string;
  /** The rich content (ProseMirror JSON text, app/lib/rich-text.ts). */
  body: string;
  /** Its plain text. */
  text: string;
  key_event: number;
  pinned: number;
  author_id: string | null;
  /** The match minute (0–130), its added time (1–30) and what happened (app/lib/live-coverage.ts), or null. */
  minute: ColumnType<number | null, number | null | undefined, number | null>;
  added_time: ColumnType<number | null, number | null | undefined, number | null>;
  event_type: ColumnType<LiveEventType | null, LiveEventType | null | undefined, LiveEventType | null>;
  created_at: string;
  updated_at: string;
}

/** The newsroom's accounts and their role (migration 2026-11-27-401; rows written before it are admins). */
export interface AdminsTable {
  user_id: string;
  created_at: string;
  role: ColumnType<"reporter" | "editor" | "admin", "reporter" | "editor" | "admin" | undefined, "reporter" | "editor" | "admin">;
  /** "Publica sem revisão" (migration 2026-11-28-901): 1 when a reporter publishes their own stories directly. */
  publishes_without_review: ColumnType<number, number | undefined, number>;
}

export type NewsRow = Selectable<NewsTable>;
export type NewNewsRow = Insertable<NewsTable>;
export type MediaRow = Selectable<MediaTable>;
export type NewMediaRow = Insertable<MediaTable>;
