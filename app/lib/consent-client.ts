import { useSyncExternalStore } from "react";
import { type ConsentChoice, consentOf } from "./ads.ts";

// The choice changes only through the consent form, whose answer is a new page: nothing to subscribe to.
const subscribe = () => () => {};
const current = () => consentOf(document.cookie);
const unknown = () => undefined;

/**
 * The reader's choice about the ad partner, read from the cookie in the browser (pages are shared by every reader
 * through the page cache, so the server never renders it): `undefined` on the server and during hydration, then
 * the choice, or null when the reader has not chosen yet.
 */
export function useConsent(): ConsentChoice | null | undefined {
  return useSyncExternalStore(subscribe, current, unknown);
}
