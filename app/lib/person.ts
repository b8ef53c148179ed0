import type { MediaView } from "./media-view.ts";

/**
 * A member's profile as the pages show it (the byline box, the person page, the form): what readers may see, never
 * the account's internal id.
 */
export interface PersonView {
  name: string;
  /** Where their stories are listed: /autor/{slug}. */
  slug: string;
  bio: string;
  photo: MediaView | null;
  links: { x: string | null; instagram: string | null; site: string | null };
}

/** The profile's links that are set, in a fixed order (the page's list and JSON-LD's `sameAs`). */
export function personLinks(person: Pick<PersonView, "links">): Array<{ kind: "x" | "instagram" | "site"; url: string }> {
  const out: Array<{ kind: "x" | "instagram" | "site"; url: string }> = [];
  for (const kind of ["x", "instagram", "site"] as const) {
    const url = person.links[kind];
    if (url) out.push({ kind, url });
  }
  return out;
}
