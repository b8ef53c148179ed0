import { randomUUID } from "node:crypto";
import { t } from "#app/i18n/newsroom.ts";
import type { NewsInput } from "#app/lib/news-schema.ts";
import { wrapFailure } from "#app/.server/errors.ts";
import { checkBodyMedia } from "#app/.server/media/body-media.server.ts";
import { setMediaText } from "#app/.server/media/media.queries.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import { withAuthorLink } from "./author-link.server.ts";
import { type NewsEditorContext, removeMediaQuietly, requireStoreForFile, storeNewFile } from "./news-change.server.ts";
import { type Actor, actorIdOf, type ReporterRights, reporterRights, requireReporterMayPublish } from "#app/.server/auth/permissions.server.ts";
import { type Publication, publicationAfter } from "#app/.server/news/publishing/news-publication.server.ts";
import { insertReviewEvent } from "#app/.server/news/publishing/news-review.server.ts";
import { viewStatusOf } from "#app/.server/news/news-rows.server.ts";
import { mediaTextOf, newsColumns, requireImageDescription, reviewStepOf, type SavedNews } from "./news-save.server.ts";
import { insertNews } from "#app/.server/news/news.queries.server.ts";
import { audienceOf, storyPaths } from "#app/.server/news/story-paths.server.ts";
import { canonicalNewsTerms, termSlug } from "#app/.server/news/taxonomy/taxonomy.server.ts";

/**
 * A new item: published now unless `status` says draft or scheduled (with `publishAt`). Its media file is stored
 * first; then the media's texts, the row (owned by whoever created it) and, when sent for review, its first review
 * step are written in one transaction with `newsUpdated`. If the transaction fails, the new media is removed again.
 */
export async function createNews(context: NewsEditorContext, input: NewsInput, file: UploadedFile | null, actor: Actor): Promise<SavedNews> {
  const { db, store, events, clock, notify } = context;
  return wrapFailure("news_create_failed", t.news.createFailed, async () => {
    const text = mediaTextOf(input, true);
    const now = clock().toISOString();
    let publication: Publication;
    let rights: ReporterRights | null;
    try {
      publication = publicationAfter(null, input, now, context);
      rights = await reporterRights(db, actor);
      requireReporterMayPublish(actor, null, publication, rights?.publishes);
      await requireImageDescription(file, text.description);
      await checkBodyMedia(db, store, input.body);
      await requireStoreForFile(store, file);
    } catch (error) {
      await file?.cleanup();
      throw error;
    }
    const fields = newsColumns(input, context.defaultAuthor);
    // A reporter's new story is never highlighted and is signed by them, whatever the input says.
    if (rights) {
      fields.is_highlighted = 0;
      if (rights.self && termSlug(fields.author) !== rights.self.slug) fields.author = rights.self.displayName;
    }
    const saved = await storeNewFile(context, file);
    const id = randomUUID();
    // Sent for review, or published or scheduled by a reporter with the "publica sem revisão" right.
    const step = reviewStepOf(null, publication, rights !== null);
    try {
      await events.withCommit(db, async (trx, send) => {
        const terms = await withAuthorLink(trx, await canonicalNewsTerms(trx, fields, now));
        if (saved) await setMediaText(trx, saved.id, text);
        await insertNews(trx, {
          id,
          ...fields,
          ...terms,
          ...publication,
          version: 1,
          media_id: saved?.id ?? null,
          created_at: now,
          updated_at: now,
          updated_by: actorIdOf(actor),
          // Whoever created it owns it (a reporter may change only their own); the site's own code owns nothing.
          owner_id: actorIdOf(actor),
        });
        if (step) await insertReviewEvent(trx, { newsId: id, version: 1, kind: step, actorId: actorIdOf(actor), at: now });
        // A new draft, story in review or schedule: nothing readers see (only the newsroom's pages hear of it).
        await send("newsUpdated", { paths: storyPaths({ id, ...fields, ...terms }), ...audienceOf(publication) });
      });
    } catch (error) {
      if (saved) await removeMediaQuietly(context, saved.id);
      throw error;
    }
    if (step === "submitted") notify?.submitted(id, actorIdOf(actor));
    else if (step === "published_directly") notify?.changedByReporter(id, step, actorIdOf(actor));
    return { id, media: saved ? "saved" : "none", status: viewStatusOf(publication), publishedAt: publication.published_at, version: 1 };
  });
}
