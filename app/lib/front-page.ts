/** How long an editor's choice for the top of the home holds (/capa), by the form's value: hours, or null (until changed). */
export const FRONT_PAGE_HOLDS = { "2h": 2, "6h": 6, "12h": 12, "24h": 24, sempre: null } as const;
export type FrontPageHold = keyof typeof FRONT_PAGE_HOLDS;
/** The form's default: a manchete is news for an afternoon. */
export const DEFAULT_FRONT_PAGE_HOLD: FrontPageHold = "6h";
