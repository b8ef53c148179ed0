import { createContext } from "react-router";

/** The client's IP address, set by the server for every request (used by sign-in rate limits). */
export const clientIpContext = createContext<string>("unknown");

/**
 * The Content-Security-Policy nonce of this response (set by the server for every request it renders), put on every
 * inline script of the page. Null when the page is rendered for the page cache: stored pages are shared by every
 * reader, so their policy lists their scripts' hashes instead.
 */
export const cspNonceContext = createContext<string | null>(null);

/**
 * The Content-Security-Policy of a document a shared cache may store (a CDN in front, Varnish): its inline scripts'
 * hashes, from its whole HTML, instead of this response's nonce, which every reader of the stored copy would share
 * (decision record 004). Set by the server for every request it renders; null where nobody in front stores pages
 * (the page cache's own renders compute their policy themselves).
 */
export const documentPolicyContext = createContext<((html: string) => string) | null>(null);
