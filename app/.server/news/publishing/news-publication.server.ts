import { t } from "#app/i18n/newsroom.ts";
import type { NewsStatus } from "#app/lib/news-view.ts";
import { parsePublishAt } from "#app/lib/zoned-time.ts";
import type { StoredNewsStatus } from "#app/.server/db/schema.ts";
import { FieldsError } from "#app/.server/errors.ts";

/** What a save says about publishing: the status wanted, the schedule, and the version the editor started from. */
export interface PublishingInput {
  /** `review`: a draft sent for review (stored as a draft, see viewStatusOf). */
  status?: NewsStatus | undefined;
  publishAt?: string | undefined;
  version?: number | undefined;
  /**
   * Whether the save may take a published item offline. A published item only leaves "published" (to a draft, or to
   * a new schedule) when this is true: a stale form's "Salvar rascunho" or a PUT with `status: "draft"` saves the
   * changes and the item stays live. True with no status (or "published") means: back to a draft.
   */
  unpublish?: boolean | undefined;
}

/** A story's status, publication date and review request, as stored. */
export interface Publication {
  status: StoredNewsStatus;
  published_at: string;
  review_requested_at: string | null;
  /** When it first went out, or null (never published): publishing it again takes this date back. */
  first_published_at: string | null;
}

/** The site's clock and time zone: a schedule without a zone ("2026-11-25T10:00") is on its clock. */
export interface PublicationClock {
  timeZone: string;
  clock: () => Date;
}

/**
 * The instant of a schedule: refused when missing, not a date, or not in the future (400, the message under the
 * schedule field: the form shows it there and moves to it).
 */
function scheduledTime(publishAt: string | undefined, { timeZone, clock }: PublicationClock): string {
  if (!publishAt) throw new FieldsError("publish_at_required", { publishAt: [t.newsForm.publishAtRequired] });
  const when = parsePublishAt(publishAt, timeZone);
  if (!when) throw new FieldsError("invalid_publish_at", { publishAt: [t.newsForm.invalidPublishAt] });
  if (when.getTime() <= clock().getTime()) throw new FieldsError("publish_at_past", { publishAt: [t.newsForm.publishAtPast] });
  return when.toISOString();
}

/**
 * The status and publication date after a save. Publishing keeps the date of an item already published (an edit
 * is not a new publication), takes back the first publication date of one that went out before (unpublished, then
 * published again: its place in lists and feeds, not the top), and is "now" for a first publication; a schedule
 * takes its time (a scheduled item edited without a new time keeps its own); a draft's date is when it became one
 * (its place in the admin list).
 */
export function publicationAfter(existing: Publication | null, input: PublishingInput, now: string, time: PublicationClock): Publication {
  // "review" is a draft sent for review: stored as a draft with the time it was sent.
  const wanted: StoredNewsStatus | undefined = input.status === "review" ? "draft" : input.status;
  const asked = input.unpublish && (!wanted || wanted === "published") ? "draft" : wanted;
  // A live item stays live unless the request says, on purpose, to take it offline.
  const status = existing?.status === "published" && !input.unpublish ? "published" : (asked ?? existing?.status ?? "published");
  const first = existing?.first_published_at ?? (existing?.status === "published" ? existing.published_at : null);
  if (status === "scheduled") {
    const keep = existing?.status === "scheduled" && !input.publishAt;
    return {
      status,
      published_at: keep ? existing.published_at : scheduledTime(input.publishAt, time),
      review_requested_at: null,
      first_published_at: first,
    };
  }
  if (status === "published") {
    const published_at = existing?.status === "published" ? existing.published_at : (first ?? now);
    return { status, published_at, review_requested_at: null, first_published_at: first ?? published_at };
  }
  // Sent for review now, or still in review after a save that says no status; "draft" (or anything else) ends it.
  const inReview = status === "draft" && (input.status === "review" || (input.status === undefined && !input.unpublish));
  const review_requested_at = inReview ? (existing?.review_requested_at ?? (input.status === "review" ? now : null)) : null;
  return { status, published_at: existing?.status === status ? existing.published_at : now, review_requested_at, first_published_at: first };
}

/** What a story that goes out (again) is published with: its first publication date, or `now` the first time. */
export function republished(row: { first_published_at: string | null }, now: string): { published_at: string; first_published_at: string } {
  const first = row.first_published_at ?? now;
  return { published_at: first, first_published_at: first };
}
