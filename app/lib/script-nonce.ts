import { createContext, useContext } from "react";

/**
 * This response's Content-Security-Policy nonce, for the inline scripts the app writes itself (the theme's, root.tsx),
 * as React Router's own get it from `<ServerRouter nonce>`. Given by entry.server.tsx; undefined in a page rendered
 * for a cache (its policy lists the scripts' hashes instead) and in the browser (a nonce is only read when parsing).
 */
export const ScriptNonceContext = createContext<string | undefined>(undefined);

export function useScriptNonce(): string | undefined {
  return useContext(ScriptNonceContext);
}
