import { createContext } from "react-router";

/** The client's IP address, set by the server for every request (used by sign-in rate limits). */
export const clientIpContext = createContext<string>("unknown");

/**
 * The Content-Security-Policy nonce of this response (set by the server for every request it renders), put on every
 * inline script of the page. Null when the page is rendered for the page cache: stored pages are shared by every
 * reader, so their policy lists their scripts' hashes instead.
 */
export const cspNonceContext = createContext<string | null>(null);
