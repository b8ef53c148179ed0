import type { Role } from "../../app/lib/roles.ts";
import type { RootData } from "../../app/lib/site-context.ts";

export const SITE: RootData["site"] = {
  name: "Esporte em Foco",
  url: "https://example.test",
  description: "",
  footerTitle: "",
  defaultAuthor: "Redação",
  contactEmail: null,
  timeZone: "America/Sao_Paulo",
  social: { instagram: "", twitter: "", facebook: "" },
  ads: null,
};

/** The root route's data for a reader (`role` null) or a newsroom member of `role`. */
export function rootData(role: Role | null): RootData {
  return { site: SITE, sponsors: [], year: 2026, isAdmin: role !== null, role, reviewCount: null, sections: [], now: "2026-11-26T12:00:00.000Z" };
}
