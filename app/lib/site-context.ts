import { useRouteLoaderData } from "react-router";
import type { SponsorView } from "./news-view.ts";

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
  /** Whether the viewer is a signed-in admin (decided on the server for this request). */
  isAdmin: boolean;
}

/** The root loader's data (site configuration and sponsors), available to every route. */
export function useRootData(): RootData {
  const data = useRouteLoaderData("root") as RootData | undefined;
  if (!data) throw new Error("useRootData outside the root route");
  return data;
}
