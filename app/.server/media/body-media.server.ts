import type { Kysely } from "kysely";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { bodyMediaIds } from "#app/lib/rich-text-plain.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { FieldsError } from "#app/.server/errors.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { toMediaView } from "./media-view.server.ts";

/**
 * The images of news bodies (image blocks, app/lib/rich-text.ts): each names a media item of this site's store by
 * its id. Saving a body checks that every one is an image of the current store (uploaded through POST /api/media);
 * pages look them up here to draw them. The orphan sweeper counts a media item named by a body (or a revision's) as
 * used (orphan-sweeper.server.ts).
 */

/** Refuses (400, under `body`) a body naming a media item that is not an image of `store`. */
export async function checkBodyMedia(db: Kysely<Database>, store: Pick<MediaStore, "name">, body: RichDoc | undefined): Promise<void> {
  if (!body) return;
  const ids = bodyMediaIds(body);
  if (ids.length === 0) return;
  const found = await db
    .selectFrom("media")
    .select("id")
    .where("id", "in", ids)
    .where("store", "=", store.name)
    .where("kind", "=", "image")
    .execute();
  if (found.length !== ids.length) throw new FieldsError("body_media_unknown", { body: [blocksText.mediaUnknown] });
}

/** The views of the images `docs` name, by media id (images of `store` only; a removed one is absent). */
export async function loadBodyMedia(
  db: Kysely<Database>,
  store: Pick<MediaStore, "name" | "publicUrl">,
  docs: RichDoc[],
): Promise<Record<string, MediaView>> {
  const ids = [...new Set(docs.flatMap(bodyMediaIds))];
  if (ids.length === 0) return {};
  const rows = await db
    .selectFrom("media")
    .select(["id", "store", "kind", "key", "mime_type", "width", "height", "variants"])
    .where("id", "in", ids)
    .where("store", "=", store.name)
    .where("kind", "=", "image")
    .execute();
  const views: Record<string, MediaView> = {};
  for (const row of rows) {
    const view = toMediaView(
      {
        media_store: row.store,
        media_kind: row.kind,
        media_key: row.key,
        media_mime_type: row.mime_type,
        media_width: row.width,
        media_height: row.height,
        media_variants: row.variants,
      },
      store,
    );
    if (view) views[row.id] = view;
  }
  return views;
}
