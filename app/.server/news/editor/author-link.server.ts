import type { Kysely, Transaction } from "kysely";
import { memberAuthorBySlug } from "#app/.server/admins/profiles.queries.server.ts";
import type { Database } from "#app/.server/db/schema.ts";

/**
 * A story's author as a person: when the author's slug is a team member's signing name (picked from the news form's
 * list, or typed the same), the story is linked to that member (`author_user_id`) and shows their name as they spell
 * it; any other author (an agency, a guest writer) is free text with no link. /autor/{slug} already treats one slug
 * as one author, so a typed name equal to a member's is that member.
 */
export async function withAuthorLink<T extends { author: string; author_slug: string }>(
  db: Kysely<Database> | Transaction<Database>,
  terms: T,
  before?: { author: string; author_slug: string; author_user_id: string | null },
): Promise<T & { author_user_id: string | null }> {
  // A member's current name, or one they signed with before renaming themselves: the story is theirs, under the
  // name and page they have now.
  const member = await memberAuthorBySlug(db, terms.author_slug);
  if (member) return { ...terms, author: member.displayName, author_slug: member.slug, author_user_id: member.userId };
  // The same author as before, whose member has since changed their name (or left): the story stays theirs.
  if (before?.author_user_id && before.author_slug === terms.author_slug) {
    return { ...terms, author: before.author, author_user_id: before.author_user_id };
  }
  return { ...terms, author_user_id: null };
}
