import type { Role } from "#app/lib/roles.ts";
import type { RootData } from "#app/lib/site-context.ts";

export const SITE: RootData["site"] = {
  name: "Esporte em Foco",
  url: "https://example.test",
  description: "",
  footerTitle: "",
  defaultAuthor: "Redação",
  contactEmail: null,
  privacyOfficer: null,
  timeZone: "America/Sao_Paulo",
  social: { instagram: "", twitter: "", facebook: "" },
  ads: null,
  alerts: true,
};

/** The root route's data for a reader (`role` null) or a newsroom member of `role` (account `userId`). */
export function rootData(role: Role | null, userId: string | null = role ? "member-1" : null): RootData {
  return {
    site: SITE,
    sponsors: [],
    year: 2026,
    isAdmin: role !== null,
    role,
    userId,
    reviewCount: null,
    sections: [],
    teams: [],
    now: "2026-11-26T12:00:00.000Z",
  };
}
