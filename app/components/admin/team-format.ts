/** How the team page writes a role and a moment (app/routes/admin/team.tsx and its parts). */
import { t } from "#app/i18n/newsroom.ts";
import type { Role } from "#app/lib/roles.ts";

export const roleName = (role: Role) => t.roles.names[role];

/** A moment in the newsroom's time zone, short; "nunca" when there is none. */
export function formatWhen(iso: string | null, timeZone: string): string {
  if (!iso) return t.team.never;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return t.team.never;
  return new Intl.DateTimeFormat("pt-BR", { timeZone, dateStyle: "short", timeStyle: "short" }).format(date);
}
