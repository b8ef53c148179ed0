import { href } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { formatDateTime } from "#app/i18n/format.ts";
import { ALERT_FORM_ANCHOR } from "#app/lib/push-topics.ts";
import buttons from "#app/components/ui/button.module.css";
import { Banner } from "./banner.tsx";
import styles from "./story-alert-panel.module.css";

export interface StoryAlertView {
  title: string;
  createdAt: string;
  /** Null while it is being sent. */
  finishedAt: string | null;
  /** An alert of one of the story's live updates, not of the story. */
  ofUpdate: boolean;
  recipients: number;
  delivered: number;
  removed: number;
  failed: number;
}

interface StoryAlertPanelProps {
  newsId: string;
  /** Readers see the story: it may go out as an alert. */
  published: boolean;
  /** Browsers following the story's section, clubs, match or the site. */
  followers: number;
  alerts: readonly StoryAlertView[];
  notice: { kind: "success" | "error"; message: string } | null;
  timeZone: string;
}

/**
 * "Alerta aos leitores" on the edit page (editors and admins, alerts on): the story as a Web Push alert to whoever
 * follows its section, its clubs or the site, once, with a box to check first; and what was sent, the story's and its
 * live updates' (how many devices, delivered, removed as gone). A plain form posting to /api/news/:id/alert, which
 * comes back here with the outcome: the same with and without JavaScript, and outside the news form (its unsaved text
 * is untouched by a full page post only after the browser's own question).
 */
export function StoryAlertPanel({ newsId, published, followers, alerts, notice, timeZone }: StoryAlertPanelProps) {
  const storySent = alerts.find((alert) => !alert.ofUpdate);
  return (
    <section id={ALERT_FORM_ANCHOR} className={styles.panel} aria-labelledby={`${ALERT_FORM_ANCHOR}-titulo`} data-testid="story-alert">
      <h2 id={`${ALERT_FORM_ANCHOR}-titulo`}>{t.deskAlerts.panelTitle}</h2>
      <p className={styles.hint}>{t.deskAlerts.panelHint}</p>
      {notice ? <Banner kind={notice.kind} message={notice.message} /> : null}
      <p data-testid="story-alert-followers">{t.deskAlerts.followers(followers)}</p>
      {storySent ? null : published ? (
        <form method="post" action={href("/api/news/:id/alert", { id: newsId })}>
          <label>
            <input type="checkbox" name="confirm" required /> {t.deskAlerts.confirm}
          </label>
          <button type="submit" className={buttons.primary} data-testid="story-alert-send">
            {t.deskAlerts.send}
          </button>
        </form>
      ) : (
        <p className={styles.hint}>{t.deskAlerts.notPublic}</p>
      )}
      {alerts.length > 0 ? (
        <ul className={styles.sent} data-testid="story-alert-sent">
          {alerts.map((alert) => (
            <li key={`${alert.createdAt}:${alert.title}`}>
              <strong>{alert.title}</strong> — {t.deskAlerts.sentStory(formatDateTime(alert.createdAt, timeZone), alert.recipients)}{" "}
              {alert.finishedAt ? t.deskAlerts.outcome(alert.delivered, alert.removed, alert.failed) : t.deskAlerts.stillSending}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
