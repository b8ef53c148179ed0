import { useRouteLoaderData } from "react-router";
import type { AdsConfig } from "./ads.ts";
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
  /** The encarregado (LGPD) the privacy page names (PRIVACY_OFFICER_NAME, _EMAIL), or null. */
  privacyOfficer: { name: string; email: string | null } | null;
  timeZone: string;
  social: { instagram: string; twitter: string; facebook: string };
  /** ADSENSE_CLIENT and its slots (null: no ad partner, no consent banner). */
  ads: AdsConfig | null;
  /** Web Push alerts on (PUSH_ALERTS): the readers' "Receber alertas", the desk's "Enviar alerta". */
  alerts: boolean;
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
  /** The signed-in member's account id (null: a reader): which unpublished stories are theirs. */
  userId: string | null;
  /** Editors and admins: how many stories are in review (null for everyone else, or when the count failed). */
  reviewCount: number | null;
  /**
   * The categories with published news, most news first (the section menu): served from memory on the server until
   * the news change, so every page carries it at no cost.
   */
  /** The section menu; `live`: a story of the section is under live coverage now ("AO VIVO"). */
  sections: Array<{ slug: string; name: string; live?: boolean }>;
  /** The section menu's team row: the clubs with published stories, most covered first (served from memory too). */
  teams: Array<{ slug: string; name: string }>;
  /**
   * When this page's data was made (ISO, the server's clock): the cards' relative times ("há 2 h") are counted from
   * it, on the server and again on hydration, so both render the same text.
   */
  now: string;
}

/** The root loader's data (site configuration and sponsors), available to every route. */
export function useRootData(): RootData {
  const data = useRouteLoaderData("root") as RootData | undefined;
  if (!data) throw new Error("useRootData outside the root route");
  return data;
}
