import { useEffect, useRef, useState } from "react";
import type { BannerKind } from "./banner.tsx";
import { focusFirstInvalid } from "./news-form-values.ts";

export const BANNER_CLEAR_MS = 3000;

type BannerState = { kind: BannerKind; message: string } | null;

/** What the form says when it opens: where a save landed it, or what the server answered a no-JavaScript submit. */
export function initialBanner(
  landed: { message: string } | null | undefined,
  serverResult: { error?: string; success?: string } | undefined,
): BannerState {
  if (landed) return { kind: "success", message: landed.message };
  if (serverResult?.error) return { kind: "error", message: serverResult.error };
  if (serverResult?.success) return { kind: "success", message: serverResult.success };
  return null;
}

/**
 * Where the news form tells the editor what happened: the banner, shown where the editor is looking (success and
 * warning banners clear after BANNER_CLEAR_MS, errors stay), and after a refused submit the first invalid field,
 * scrolled to and focused (then the banner does not pull the page away from it).
 */
export function useFormBanner(initial: () => BannerState) {
  const [banner, setBanner] = useState<BannerState>(initial);
  const bannerRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const toField = useRef(false);

  // After a refused submit: to the first invalid field (its aria-invalid is set by now, the body editor's included).
  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current);
  }, [focusRequest]);

  useEffect(() => {
    if (!banner) return;
    if (!toField.current) bannerRef.current?.scrollIntoView({ block: "center", behavior: "smooth" });
    toField.current = false;
    if (banner.kind === "error") return;
    const timer = setTimeout(() => setBanner(null), BANNER_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  return {
    banner,
    setBanner,
    bannerRef,
    formRef,
    /** Takes the editor to the first invalid field once the errors are drawn. */
    toFirstInvalid() {
      toField.current = true;
      setFocusRequest((count) => count + 1);
    },
  };
}
