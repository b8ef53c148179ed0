import type { Migration } from "kysely/migration";
import * as initial from "./2026-11-22-001-initial.ts";
import * as driveFiles from "./2026-11-22-002-drive-files.ts";
import * as verifiedAdmins from "./2026-11-23-010-verified-admins.ts";
import * as newsSearch from "./2026-11-24-001-news-search.ts";
import * as newsStatus from "./2026-11-25-010-news-status.ts";
import * as taxonomy from "./2026-11-25-020-taxonomy.ts";
import * as mediaText from "./2026-11-25-020-taxonomy-media-text.ts";
import * as videoPosters from "./2026-11-25-030-video-posters.ts";
import * as newsReads from "./2026-11-25-040-news-reads.ts";
import * as ownershipChecks from "./2026-11-26-401-ownership-checks.ts";
import * as searchPublishedOnly from "./2026-11-26-500-search-published-only.ts";
import * as newsBody from "./2026-11-26-600-news-body.ts";
import * as revisionStatus from "./2026-11-26-700-revision-status.ts";
import * as sponsorRecords from "./2026-11-26-801-sponsor-records.ts";
import * as newsAutosaves from "./2026-11-27-101-news-autosaves.ts";
import * as newsroomList from "./2026-11-27-200-newsroom-list.ts";
import * as roles from "./2026-11-27-401-roles.ts";
import * as team from "./2026-11-27-701-team.ts";
import * as reviewEvents from "./2026-11-27-801-review-events.ts";
import * as memberProfiles from "./2026-11-28-101-member-profiles.ts";
import * as liveCoverage from "./2026-11-28-301-live-coverage.ts";
import * as sectionSettings from "./2026-11-28-501-section-settings.ts";
import * as mediaFocus from "./2026-11-28-701-media-focus.ts";
import * as publishesWithoutReview from "./2026-11-28-901-publishes-without-review.ts";
import * as authorRenames from "./2026-11-28-951-author-renames.ts";
import * as publicationHistory from "./2026-11-28-961-publication-history.ts";
import * as liveMatchEvents from "./2026-11-28-971-live-match-events.ts";
import * as newsTrash from "./2026-11-28-981-news-trash.ts";
import * as frontPage from "./2026-11-29-001-front-page.ts";
import * as searchTypos from "./2026-11-29-101-search-typos.ts";
import * as matchStrip from "./2026-11-29-201-match-strip.ts";
import * as teams from "./2026-11-29-301-teams.ts";
import * as pushAlerts from "./2026-11-29-401-push-alerts.ts";

/**
 * Every migration, in order (Kysely runs them sorted by name). Listed statically so the server bundle carries them.
 *
 * Each name starts with a date and a number no other migration has (tests/unit/migration-names.test.ts). The two
 * `2026-11-25-020-…` files predate that rule and keep their names: an installation records the migrations it has run
 * by name (the `kysely_migration` table), and Kysely refuses to start when one of those names is missing, so renaming
 * a migration that has run somewhere breaks that installation. Their order is still fixed ("…-taxonomy" sorts before
 * "…-taxonomy-media-text").
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22-001-initial": initial,
  "2026-11-22-002-drive-files": driveFiles,
  "2026-11-23-010-verified-admins": verifiedAdmins,
  "2026-11-24-001-news-search": newsSearch,
  "2026-11-25-010-news-status": newsStatus,
  "2026-11-25-020-taxonomy": taxonomy,
  "2026-11-25-020-taxonomy-media-text": mediaText,
  "2026-11-25-030-video-posters": videoPosters,
  "2026-11-25-040-news-reads": newsReads,
  "2026-11-26-401-ownership-checks": ownershipChecks,
  "2026-11-26-500-search-published-only": searchPublishedOnly,
  "2026-11-26-600-news-body": newsBody,
  "2026-11-26-700-revision-status": revisionStatus,
  "2026-11-26-801-sponsor-records": sponsorRecords,
  "2026-11-27-101-news-autosaves": newsAutosaves,
  "2026-11-27-200-newsroom-list": newsroomList,
  "2026-11-27-401-roles": roles,
  "2026-11-27-701-team": team,
  "2026-11-27-801-review-events": reviewEvents,
  "2026-11-28-101-member-profiles": memberProfiles,
  "2026-11-28-301-live-coverage": liveCoverage,
  "2026-11-28-501-section-settings": sectionSettings,
  "2026-11-28-701-media-focus": mediaFocus,
  "2026-11-28-901-publishes-without-review": publishesWithoutReview,
  "2026-11-28-951-author-renames": authorRenames,
  "2026-11-28-961-publication-history": publicationHistory,
  "2026-11-28-971-live-match-events": liveMatchEvents,
  "2026-11-28-981-news-trash": newsTrash,
  "2026-11-29-001-front-page": frontPage,
  "2026-11-29-101-search-typos": searchTypos,
  "2026-11-29-201-match-strip": matchStrip,
  "2026-11-29-301-teams": teams,
  "2026-11-29-401-push-alerts": pushAlerts,
};
