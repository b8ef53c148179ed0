import { useMatches } from "react-router";

/**
 * The reader's theme: "light" or "dark" as chosen with the header's switch, or "auto" (nothing stored: the device's
 * `prefers-color-scheme`). The choice stays on the device (localStorage "tema") and is `data-theme` on <html>, which
 * global.css reads; "auto" has no attribute. The newsroom's pages stay light whatever the choice (`data-area`).
 */
export type ThemeChoice = "auto" | "light" | "dark";

export const THEME_STORAGE_KEY = "tema";

/**
 * Run in <head> before the body is parsed, so the first paint already has the chosen theme (no flash of the other
 * one). Inline: it carries the page's nonce, or is listed by its hash in a cached page's policy (root.tsx).
 */
export const THEME_SCRIPT = `try{var t=localStorage.getItem("${THEME_STORAGE_KEY}");if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/** Sets the theme on the page and remembers it on the device (other open tabs keep theirs until they reload). */
export function applyTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === "auto") delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    if (choice === "auto") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage turned off: the choice holds for this page only.
  }
}

/** Whether this page is one of the newsroom's (the sign-in pages and everything behind the guard): kept light. */
export function useIsNewsroom(): boolean {
  return useMatches().some((match) => match.id.startsWith("routes/admin/"));
}
