import { t } from "#app/i18n/pt-BR.ts";
import { LIVE_EVENT_ICONS, type LiveEventType, parseMatchMinute } from "#app/lib/live-coverage.ts";
import styles from "./live-coverage.module.css";

/**
 * What an update tells of the match, as readers see it: "32' ⚽ Gol", "45+2'", "🟥 Cartão vermelho". The symbols
 * and the minute's sign are not read out: a screen reader hears "32 minutos, gol" (the words, in a visually hidden
 * text). Nothing when the update has neither a minute nor an event.
 */
export function LiveEventMark({ minute, eventType }: { minute: string | null; eventType: LiveEventType | null }) {
  if (minute === null && eventType === null) return null;
  const match = minute === null ? null : parseMatchMinute(minute);
  const label = eventType ? t.live.events[eventType] : null;
  const spoken = [match && match !== "invalid" ? t.live.minuteSpoken(match.minute, match.added) : minute, label?.toLocaleLowerCase("pt-BR")]
    .filter(Boolean)
    .join(", ");
  return (
    <span className={styles.eventMark} data-testid="live-event" data-event={eventType ?? undefined}>
      <span aria-hidden="true">
        {minute === null ? null : <span className={styles.minute}>{t.live.minuteMark(minute)}</span>}
        {minute !== null && eventType ? " " : null}
        {eventType ? `${LIVE_EVENT_ICONS[eventType]} ${label}` : null}
      </span>
      <span className="visually-hidden">{spoken}</span>
    </span>
  );
}
