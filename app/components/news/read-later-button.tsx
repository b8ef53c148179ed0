import { Bookmark, BookmarkCheck } from "lucide-react";
import { t } from "#app/i18n/pt-BR.ts";
import { useReadLater } from "#app/lib/read-later.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./read-later-button.module.css";

/**
 * "Ler depois" for one story: marks or unmarks it on this device (a toggle, `aria-pressed`). Drawn once the page is
 * hydrated (the list lives in the browser; without JavaScript there is nothing it could do). `compact`: a round icon
 * over a card's picture.
 */
export function ReadLaterButton({ story, compact = false }: { story: { id: string; path: string; title: string }; compact?: boolean }) {
  const { items, toggle } = useReadLater();
  if (items === null) return null;
  const saved = items.some((item) => item.id === story.id);
  const Icon = saved ? BookmarkCheck : Bookmark;
  const label = saved ? t.readLater.saved : t.readLater.save;
  return (
    <button
      type="button"
      className={compact ? styles.icon : `${buttons.pill} ${styles.saved}`}
      aria-pressed={saved}
      // On a card the story's title names what is marked (a list of cards has one such button per story).
      aria-label={compact ? t.readLater.saveStory(story.title) : undefined}
      title={compact ? label : undefined}
      onClick={() => toggle({ id: story.id, path: story.path, title: story.title })}
      data-testid="read-later"
    >
      <Icon aria-hidden="true" size={18} />
      {compact ? null : label}
    </button>
  );
}
