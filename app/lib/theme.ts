import { useSyncExternalStore } from "react";
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

const listeners = new Set<() => void>();

function current(): ThemeChoice {
  const theme = document.documentElement.dataset.theme;
  return theme === "light" || theme === "dark" ? theme : "auto";
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the site changed it.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY) return;
    applyTheme(event.newValue === "light" || event.newValue === "dark" ? event.newValue : "auto", false);
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** Sets the theme on the page and (unless it came from another tab) remembers it on the device. */
export function applyTheme(choice: ThemeChoice, remember = true) {
  if (choice === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  if (remember) {
    try {
      if (choice === "auto") localStorage.removeItem(THEME_STORAGE_KEY);
      else localStorage.setItem(THEME_STORAGE_KEY, choice);
    } catch {
      // Storage turned off: the choice holds for this page only.
    }
  }
  for (const listener of listeners) listener();
}

/** The theme in force ("auto" on the server and while hydrating, whose HTML is the same for every reader). */
export function useTheme(): ThemeChoice {
  return useSyncExternalStore(subscribe, current, () => "auto");
}

/** Whether this page is one of the newsroom's (the sign-in pages and everything behind the guard): kept light. */
export function useIsNewsroom(): boolean {
  return useMatches().some((match) => match.id.startsWith("routes/admin/"));
}
