import { useRouteLoaderData } from "react-router";
import type { SponsorView } from "./news-view.ts";
import type { Role } from "./roles.ts";

/** The part of the configuration the browser may see (sent by the root loader). */
export interface PublicSiteConfig {
  name: string;
  url: string;
  description: string;
  footerTitle: string;
  defaultAuthor: string;
  contactEmail: string | null;
  timeZone: string;
  social: { instagram: string; twitter: string; facebook: string };
}

export interface RootData {
  site: PublicSiteConfig;
  sponsors: SponsorView[];
  year: number;
  /**
   * Whether the viewer is a signed-in member of the newsroom, any role (decided on the server for this request):
   * newsroom badges, links and buttons. What each role may do is `role`.
   */
  isAdmin: boolean;
  /** The viewer's newsroom role, or null (a reader). The pages only hide what a role cannot do; the server decides. */
  role: Role | null;
  /** Editors and admins: how many stories are in review (null for everyone else, or when the count failed). */
  reviewCount: number | null;
}

/** The root loader's data (site configuration and sponsors), available to every route. */
export function useRootData(): RootData {
  const data = useRouteLoaderData("root") as RootData | undefined;
  if (!data) throw new Error("useRootData outside the root route");
  return data;
}
