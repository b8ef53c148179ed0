import type { Kysely, Transaction } from "kysely";
import { memberAuthorBySlug } from "../admins/profiles.queries.server.ts";
import type { Database } from "../db/schema.ts";

/**
 * A story's author as a person: when the author's slug is a team member's signing name (picked from the news form's
 * list, or typed the same), the story is linked to that member (`author_user_id`) and shows their name as they spell
 * it; any other author (an agency, a guest writer) is free text with no link. /autor/{slug} already treats one slug
 * as one author, so a typed name equal to a member's is that member.
 */
export async function withAuthorLink<T extends { author: string; author_slug: string }>(
  db: Kysely<Database> | Transaction<Database>,
  terms: T,
): Promise<T & { author_user_id: string | null }> {
  const member = await memberAuthorBySlug(db, terms.author_slug);
  return member ? { ...terms, author: member.displayName, author_user_id: member.userId } : { ...terms, author_user_id: null };
}
