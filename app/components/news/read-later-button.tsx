import { Bookmark, BookmarkCheck } from "lucide-react";
import { t } from "../../i18n/pt-BR.ts";
import { useReadLater } from "../../lib/read-later.ts";
import styles from "./read-later-button.module.css";

/**
 * "Ler depois" for one story: marks or unmarks it on this device (a toggle, `aria-pressed`). Drawn once the page is
 * hydrated (the list lives in the browser; without JavaScript there is nothing it could do).
 */
export function ReadLaterButton({ story }: { story: { id: string; path: string; title: string } }) {
  const { items, toggle } = useReadLater();
  if (items === null) return null;
  const saved = items.some((item) => item.id === story.id);
  const Icon = saved ? BookmarkCheck : Bookmark;
  return (
    <button
      type="button"
      className={styles.button}
      aria-pressed={saved}
      onClick={() => toggle({ id: story.id, path: story.path, title: story.title })}
      data-testid="read-later"
    >
      <Icon aria-hidden="true" size={18} />
      {saved ? t.readLater.saved : t.readLater.save}
    </button>
  );
}
