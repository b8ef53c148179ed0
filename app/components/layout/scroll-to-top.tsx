import { ArrowUp } from "lucide-react";
import { useEffect, useState } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import styles from "./scroll-to-top.module.css";

/** Past this many pixels of scroll the button appears… */
export const SCROLL_TO_TOP_THRESHOLD = 200;
/** …and it hides again this long after the last scroll. */
export const SCROLL_TO_TOP_HIDE_MS = 3000;

export function ScrollToTopButton() {
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      if (window.scrollY > SCROLL_TO_TOP_THRESHOLD) {
        setVisible(true);
        timer = setTimeout(() => setVisible(false), SCROLL_TO_TOP_HIDE_MS);
      } else {
        setVisible(false);
      }
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      clearTimeout(timer);
    };
  }, []);

  return (
    <button
      type="button"
      className={styles.button}
      data-visible={visible}
      hidden={!visible}
      aria-label={t.layout.scrollToTop}
      title={t.layout.scrollToTop}
      onClick={() => {
        // The button hides itself below 200 px; hiding it while it has focus cancels the smooth scroll in
        // Chromium (it stopped at ~150 px). Move focus to the top of the content first.
        document.getElementById("conteudo")?.focus({ preventScroll: true });
        window.scrollTo({ top: 0, behavior: "smooth" });
      }}
    >
      <ArrowUp aria-hidden="true" size={24} />
    </button>
  );
}
