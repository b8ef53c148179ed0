import type { Route } from "./+types/media";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRoleApi } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readSubmission, withUploadSlot } from "#app/.server/http/submissions.server.ts";
import { requireStoreFor, storedOrRefused } from "#app/.server/storage/store-unavailable.server.ts";
import { NEWS_MEDIA_MAX_BYTES } from "#app/lib/limits.ts";
import type { UploadRules } from "#app/.server/media/upload.server.ts";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { PRIVATE_NO_STORE } from "#app/lib/cache-headers.ts";

/** An image of a news body: an image only, under the news media limit. */
const BODY_IMAGE_RULES: UploadRules = {
  maxBytes: NEWS_MEDIA_MAX_BYTES,
  accept: ["image"],
  messages: { tooLarge: t.newsForm.mediaTooLarge, invalidType: blocksText.imageNotImage },
};

/**
 * POST /api/media: stores an image for a news body's image block (admin; multipart with the image under `file`).
 * The same pipeline as a news item's media (type from the bytes, re-encoded into WebP and original-format
 * variants, this installation's keys); the answer is the new media item's id, which the block names, and its
 * preview address. Until a saved body names it, the media item is an orphan that the sweeper removes after its
 * grace period (orphan-sweeper.server.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  const services = servicesOf(context);
  const { media, store, config, log } = services;
  try {
    const viewer = await requireRoleApi(request, context, handle);
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const form = await readSubmission(request, { fileField: "file", rules: BODY_IMAGE_RULES, tmpDir: config.media.uploadTmpDir });
      if (!form.file) return apiError(400, "file_required", blocksText.imageFileRequired);
      const file = form.file;
      try {
        await requireStoreFor(store, "bodyImage");
      } catch (error) {
        await file.cleanup();
        throw error;
      }
      const saved = await storedOrRefused(store, "bodyImage", () => media.saveUpload(file));
      return Response.json(
        { id: saved.id, src: store.publicUrl(previewKey(saved.variants) ?? saved.key), width: saved.width, height: saved.height },
        { status: 201 },
      );
    });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/**
 * GET /api/media?id={id}: the editor's preview of a body image already saved (admin): a redirect to its 800 px (or
 * smaller) WebP variant, so the editor can show the images of the body it opens with by their ids. Without `id`,
 * 405: nothing is listed here.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("id");
  if (id === null) return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  const { store, database, log } = servicesOf(context);
  try {
    await requireRoleApi(request, context, handle);
    const row = /^[A-Za-z0-9_-]{1,64}$/.test(id)
      ? await database.db
          .selectFrom("media")
          .select(["key", "variants"])
          .where("id", "=", id)
          .where("store", "=", store.name)
          .where("kind", "=", "image")
          .executeTakeFirst()
      : undefined;
    if (!row) return apiError(404, "media_not_found", blocksText.mediaUnknown);
    return new Response(null, {
      status: 302,
      headers: { Location: store.publicUrl(previewKey(row.variants) ?? row.key), "Cache-Control": PRIVATE_NO_STORE },
    });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** The key of the variant the editor previews: the widest WebP up to 800 px (null when the record has none). */
function previewKey(variantsJson: string): string | null {
  try {
    const variants = JSON.parse(variantsJson) as { width: number; format: string; key: string }[];
    const webp = variants.filter((variant) => variant.format === "webp" && variant.width <= 800);
    return webp.sort((a, b) => b.width - a.width)[0]?.key ?? null;
  } catch {
    return null;
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Every newsroom role: reporters put images in their stories too. */
export const handle = routeFacts({ cache: false, uploads: true, role: "reporter" });
