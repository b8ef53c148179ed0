import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import type { PersonView } from "#app/lib/person.ts";
import { type ProfileFields, profileFieldsSchema } from "#app/lib/profile-schema.ts";
import type { Role } from "#app/lib/roles.ts";
import { requireMayEditProfile } from "#app/.server/auth/permissions.server.ts";
import { articlePath, termPath } from "#app/lib/slug.ts";
import { fieldErrorsOf } from "#app/lib/zod.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, FieldsError, NotFoundError } from "#app/.server/errors.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { MediaService } from "#app/.server/media/media.service.server.ts";
import { toMediaView } from "#app/.server/media/media-view.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { requireStoreFor, storedOrRefused } from "#app/.server/storage/store-unavailable.server.ts";
import { termSlug } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import {
  aliasesOfMember,
  authorUserIdOfSlug,
  findProfileRow,
  listMemberAuthors,
  memberOfAlias,
  type ProfileRow,
  renameMemberStories,
  slugTakenByOther,
  storyAuthorUserId,
  storyPathsOfAuthor,
  upsertProfile,
} from "./profiles.queries.server.ts";

/** Who edits a profile: the signed-in member (their own; an admin, anyone's). */
export interface ProfileEditor {
  userId: string;
  role: Role;
}

/** A profile as the form shows it: the person plus the raw fields. */
export interface ProfileForm {
  person: PersonView;
  /** Whether the member saved a profile yet (else the name is the account's). */
  saved: boolean;
}

/** The profile's fields checked by the shared schema, or a 400 naming each field's problem (pt-BR). */
export function parseProfileFields(fields: Record<string, string | undefined>): ProfileFields {
  const result = profileFieldsSchema.safeParse(fields);
  if (!result.success) throw new FieldsError("validation_failed", fieldErrorsOf(result.error) as Record<string, string[]>);
  return result.data;
}

/**
 * Members' public profiles (display name, bio, photo, links): the news form's author choices, the byline box under a
 * member's stories, the person page at /autor/{slug}, and the member's own "Meu perfil" page (an admin edits anyone's).
 * A profile change refreshes the author's page and their stories' pages (their byline box).
 */
export function createProfileService(deps: {
  db: Kysely<Database>;
  media: Pick<MediaService, "saveUpload" | "deleteMedia">;
  store: Pick<MediaStore, "publicUrl" | "isConnected" | "name">;
  events: Pick<EventBus, "withCommit">;
  log: Logger;
  clock?: () => Date;
}) {
  const { db, media, store, events, log, clock = () => new Date() } = deps;

  function personOf(row: ProfileRow): PersonView {
    return {
      name: row.display_name,
      slug: row.slug,
      bio: row.bio,
      photo: row.photo_media_id ? toMediaView(row, store) : null,
      links: { x: row.link_x, instagram: row.link_instagram, site: row.link_site },
    };
  }

  async function person(userId: string | null): Promise<PersonView | null> {
    if (!userId) return null;
    const row = await findProfileRow(db, userId);
    return row ? personOf(row) : null;
  }

  /** The member's name when they have no profile yet: the account's. */
  async function accountName(userId: string): Promise<string | null> {
    const row = await db
      .selectFrom("admins")
      .innerJoin("user", "user.id", "admins.user_id")
      .select("user.name")
      .where("admins.user_id", "=", userId)
      .executeTakeFirst();
    return row?.name ?? null;
  }

  return {
    /** The news form's author choices: every member's signing name. */
    memberAuthors: () => listMemberAuthors(db),

    /** The byline box of a story: its author's profile, or null (a free-text author, or a member with no profile). */
    async bylineOfStory(newsId: string): Promise<PersonView | null> {
      return person(await storyAuthorUserId(db, newsId));
    },

    /**
     * The person behind /autor/{slug}: the member whose published stories carry that slug (a rename moves them to
     * the new slug, and the old one redirects: renamedAuthorPath), else the member whose profile has it; null for a
     * free-text author.
     */
    async personOfSlug(slug: string): Promise<PersonView | null> {
      const found = await person(await authorUserIdOfSlug(db, slug));
      if (found) return found;
      const row = await db.selectFrom("member_profiles").select("user_id").where("slug", "=", slug).executeTakeFirst();
      return person(row?.user_id ?? null);
    },

    /** The current /autor/ address of the member who left this slug by renaming themselves, or null. */
    async renamedAuthorPath(slug: string): Promise<string | null> {
      const member = await memberOfAlias(db, slug);
      return member && member.slug !== slug ? termPath("author", member.slug) : null;
    },

    /** The profile saved under this slug by a current member (their page before any published story), or null. */
    async memberPage(slug: string): Promise<PersonView | null> {
      const row = await db
        .selectFrom("member_profiles")
        .innerJoin("admins", "admins.user_id", "member_profiles.user_id")
        .select("member_profiles.user_id")
        .where("member_profiles.slug", "=", slug)
        .executeTakeFirst();
      return person(row?.user_id ?? null);
    },

    /** A member's profile for the form (their own; an admin, anyone's). 403 for someone else's, 404 for a non-member. */
    async formOf(editor: ProfileEditor, userId: string): Promise<ProfileForm> {
      requireMayEditProfile(editor, userId);
      const saved = await person(userId);
      if (saved) return { person: saved, saved: true };
      const name = await accountName(userId);
      if (name === null) throw new NotFoundError("member_not_found", t.profile.memberNotFound);
      return {
        person: { name, slug: termSlug(name), bio: "", photo: null, links: { x: null, instagram: null, site: null } },
        saved: false,
      };
    },

    /**
     * Saves a profile: the fields checked first (the photo's file removed when refused), the photo stored, then the
     * row and the event in one transaction; the replaced photo is removed after. A display name another member's
     * profile already uses is refused (409).
     */
    async save(editor: ProfileEditor, userId: string, fields: Record<string, string | undefined>, file: UploadedFile | null): Promise<PersonView> {
      let input: ProfileFields;
      let before: ProfileRow | undefined;
      try {
        requireMayEditProfile(editor, userId);
        if ((await accountName(userId)) === null) throw new NotFoundError("member_not_found", t.profile.memberNotFound);
        input = parseProfileFields(fields);
        if (file && file.kind !== "image") throw new AppError("upload_invalid_type", t.profile.photoOnly, 415);
        if (file) await requireStoreFor(store, "photo");
        before = await findProfileRow(db, userId);
      } catch (error) {
        await file?.cleanup();
        throw error;
      }
      const slug = termSlug(input.displayName);
      if (await slugTakenByOther(db, slug, userId)) {
        await file?.cleanup();
        throw new FieldsError("display_name_taken", { displayName: [t.profile.displayNameTaken] });
      }
      const saved = file ? await storedOrRefused(store, "photo", () => media.saveUpload(file)) : null;
      const photo = saved ? saved.id : input.removePhoto ? null : (before?.photo_media_id ?? null);
      try {
        await events.withCommit(db, async (trx, send) => {
          await upsertProfile(trx, {
            user_id: userId,
            display_name: input.displayName,
            slug,
            bio: input.bio,
            photo_media_id: photo,
            link_x: input.linkX,
            link_instagram: input.linkInstagram,
            link_site: input.linkSite,
            updated_at: clock().toISOString(),
          });
          // The byline follows the member: their stories take the new name and page, the old pages redirect there,
          // and the author page's title spells the name as the member does.
          const left = await renameMemberStories(trx, userId, input.displayName, slug, clock().toISOString());
          const paths = new Set([termPath("author", slug)]);
          if (before) paths.add(termPath("author", before.slug));
          for (const old of [...left, ...(await aliasesOfMember(trx, userId))]) paths.add(termPath("author", old));
          for (const story of await storyPathsOfAuthor(trx, userId)) paths.add(articlePath(story));
          await send("newsUpdated", { paths: [...paths] });
        });
      } catch (error) {
        if (saved) await media.deleteMedia(saved.id).catch(() => undefined);
        if (error instanceof Error && /unique|UNIQUE/.test(error.message))
          throw new FieldsError("display_name_taken", { displayName: [t.profile.displayNameTaken] });
        throw error;
      }
      const old = before?.photo_media_id;
      if (old && old !== photo) {
        await media.deleteMedia(old).catch((error: unknown) => log.warn({ err: error, mediaId: old }, "old profile photo removal failed"));
      }
      const after = await person(userId);
      if (!after) throw new AppError("profile_save_failed", t.profile.saveFailed, 500);
      return after;
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
