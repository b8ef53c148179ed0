import { Bell, BellRing } from "lucide-react";
import { useId, useState } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import { followedTopics, useFollowedTopics, withTopic } from "#app/lib/push-alerts.ts";
import type { PushTopic } from "#app/lib/push-topics.ts";
import { useRootData } from "#app/lib/site-context.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./alert-button.module.css";

/**
 * "Receber alertas" / "Avisar gols deste jogo": follows one topic on this device with Web Push (a toggle,
 * `aria-pressed`). The browser asks for permission only after the tap; what could not be done is said under it, in
 * words (blocked notifications, a browser without push). Shown once the page is hydrated (the list lives on the
 * device; until then its place is kept) and only where the site has alerts on (PUSH_ALERTS).
 */
export function AlertButton({
  topic,
  label,
  labelOn,
  hint,
  compact = false,
  className = "",
}: {
  topic: PushTopic;
  label: string;
  labelOn: string;
  hint: string;
  /** A round bell named by `aria-label` (the footer's row of icons), with the page's `className` for its look. */
  compact?: boolean;
  className?: string;
}) {
  const { site } = useRootData();
  const followed = useFollowedTopics();
  const hintId = useId();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  if (!site.alerts) return null;
  // Before hydration (and without JavaScript) the button is drawn hidden: it holds its place, so nothing moves when it
  // appears with what this device follows.
  const on = followed?.includes(topic) ?? false;

  async function toggle() {
    setBusy(true);
    setMessage(null);
    const next = withTopic(followedTopics.snapshot(), topic, !on);
    const { changeAlerts } = await import("#app/lib/push-subscribe.ts");
    const outcome = await changeAlerts(next);
    setBusy(false);
    if (outcome === "ok") {
      followedTopics.write(next);
      setMessage(on ? { kind: "ok", text: t.alerts.stopped } : null);
      return;
    }
    setMessage({ kind: "error", text: outcome === "denied" ? t.alerts.denied : outcome === "unsupported" ? t.alerts.unsupported : t.alerts.failed });
  }

  const Icon = on ? BellRing : Bell;
  return (
    <div className={compact ? styles.compactAlerts : styles.alerts}>
      <button
        type="button"
        className={compact ? `${styles.compact} ${className}` : `${buttons.pill} ${styles.button}`}
        aria-pressed={on}
        aria-label={compact ? (on ? labelOn : label) : undefined}
        aria-describedby={hintId}
        title={hint}
        disabled={busy}
        onClick={() => void toggle()}
        data-testid="alert-button"
      >
        <Icon aria-hidden="true" size={compact ? 20 : 18} />
        {compact ? null : busy ? t.alerts.working : on ? labelOn : label}
      </button>
      <span id={hintId} className="visually-hidden">
        {hint}
      </span>
      {/* Only after a tap (a layout change the reader caused): what happened, or why not. */}
      {/* A polite live region, not a "status" landmark: every page carries the footer's bell, and its silence. */}
      <p className={message?.kind === "error" ? styles.error : styles.message} aria-live="polite">
        {message?.text ?? ""}
      </p>
    </div>
  );
}
