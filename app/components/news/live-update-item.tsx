import { useEffect, useState } from "react";
import { formatCardTime, formatDateTime, formatTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { liveUpdateAnchor, type LiveUpdateView } from "#app/lib/live-coverage.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import { useRootData } from "#app/lib/site-context.ts";
import styles from "./live-coverage.module.css";
import { LiveEventMark } from "./live-event-mark.tsx";
import { RichText } from "./rich-text.tsx";

/**
 * The time the page counts from: the root's request time while hydrating (the server's HTML and the first render
 * say the same), then the browser's clock, every 30 s.
 */
export function useLiveNow(): string {
  const { now: rendered } = useRootData();
  const [now, setNow] = useState(rendered);
  useEffect(() => {
    setNow(new Date().toISOString());
    const timer = setInterval(() => setNow(new Date().toISOString()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** When an update was posted: "há 3 min" and the time of day; the full date and time on hover. */
export function LiveTime({ value, now }: { value: string; now: string }) {
  const { site } = useRootData();
  return (
    <span className={styles.time}>
      <time dateTime={value} title={formatDateTime(value, site.timeZone)} data-testid="live-update-time">
        {/* An update newer than the page's clock (just posted, or a browser clock behind the server's) is "agora". */}
        {formatCardTime(value, value > now ? value : now, site.timeZone)}
      </time>
      <span aria-hidden="true"> · </span>
      <span>{t.live.at(formatTime(value, site.timeZone))}</span>
    </span>
  );
}

/**
 * One update of a live story: the match minute and event ("32' ⚽ Gol"), its time, its marks (key event, pinned), its
 * content; the newsroom's controls under it.
 */
export function LiveUpdateItem({
  update,
  now,
  media,
  actions,
}: {
  update: LiveUpdateView;
  now: string;
  media: Readonly<Record<string, MediaView>>;
  actions?: React.ReactNode;
}) {
  const { site } = useRootData();
  const classes = [styles.update, update.keyEvent || update.eventType ? styles.keyEvent : "", update.pinned ? styles.pinned : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <li id={liveUpdateAnchor(update.id)} className={classes} data-testid="live-update" data-update-id={update.id} data-key-event={update.keyEvent}>
      <p className={styles.updateMeta}>
        <LiveEventMark minute={update.minute} eventType={update.eventType} />
        <LiveTime value={update.createdAt} now={now} />
        {update.keyEvent ? <span className={styles.keyMark}>{t.live.keyEvent}</span> : null}
        {update.pinned ? <span className={styles.pinMark}>{t.live.pinned}</span> : null}
      </p>
      <div className={styles.updateBody}>
        <RichText doc={update.body} siteUrl={site.url} media={media} />
      </div>
      {actions}
    </li>
  );
}
