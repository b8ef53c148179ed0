import { href } from "react-router";
import { articlePath, termPath } from "#app/lib/slug.ts";

/** What a version of a story says about where it is shown; only the id is required (a deleted story's). */
export interface StoryAddress {
  id: string;
  title?: string | null | undefined;
  category_slug?: string | null | undefined;
  author_slug?: string | null | undefined;
}

/**
 * The URL paths a change to a story must stop serving at once, for the `paths` of its `newsUpdated` event: for each
 * version given (before and after the change), its article without and with the slug (the old slug of a corrected
 * title included), its category's and its author's pages. The page cache removes each path's page, its `.data` and
 * the pages under it, so `/article/{id}` alone already takes every slug of a story whose title is not known.
 */
export function storyPaths(...versions: Array<StoryAddress | null | undefined>): string[] {
  const paths = new Set<string>();
  for (const version of versions) {
    if (!version) continue;
    paths.add(href("/article/:id/:slug?", { id: version.id }));
    if (version.title) paths.add(articlePath({ id: version.id, title: version.title }));
    if (version.category_slug) paths.add(termPath("category", version.category_slug));
    if (version.author_slug) paths.add(termPath("author", version.author_slug));
  }
  return [...paths];
}

/**
 * Who a change to stories concerns, given their states before and after it: readers when any of them was or is
 * published, otherwise only the newsroom (`newsroomOnly`: readers' pages, caches, feeds and event streams are left
 * alone, so nothing public tells that an unpublished story exists or changed).
 */
export function audienceOf(...states: Array<{ status?: string | null } | null | undefined>): { newsroomOnly?: true } {
  return states.some((state) => state?.status === "published") ? {} : { newsroomOnly: true };
}
