import { createContext, type ReactNode, useContext, useEffect, useRef } from "react";

/**
 * What "Devolver ao repórter" (news-review-panel.tsx, under the news form and outside it) needs of the form on the same
 * edit page: whether it holds unsaved changes, a way to save them (the story stays in review) before the return, and
 * a way to let the return's page change through without the leave guard's "Sair sem salvar?".
 */
export interface NewsFormForReturn {
  dirty: boolean;
  /** Saves the form's changes as they are; the story's new version, or null (refused: the form says why). */
  saveBeforeReturn(): Promise<number | null>;
  /** The next page change is the return itself: no question before it. */
  allowLeave(): void;
}

type Link = { current: NewsFormForReturn | null };

const ReturnLinkContext = createContext<Link | null>(null);

/** Around the edit page's news form and its "Devolver ao repórter": the one connects to the other. */
export function NewsReturnLink({ children }: { children: ReactNode }) {
  const link = useRef<NewsFormForReturn | null>(null);
  return <ReturnLinkContext.Provider value={link}>{children}</ReturnLinkContext.Provider>;
}

/** The news form offers itself to the return (kept current each render; nothing when there is no return on the page). */
export function useOfferToReturn(form: NewsFormForReturn) {
  const link = useContext(ReturnLinkContext);
  if (link) link.current = form;
  useEffect(
    () => () => {
      if (link?.current === form) link.current = null;
    },
    [link, form],
  );
}

/** The return's side: the news form as it is now, or null (no form on the page, or not hydrated yet). */
export function useFormForReturn(): () => NewsFormForReturn | null {
  const link = useContext(ReturnLinkContext);
  return () => link?.current ?? null;
}
