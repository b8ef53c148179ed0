import { useEffect, useRef } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import { type AdSlotName, adsenseScriptUrl } from "#app/lib/ads.ts";
import { useConsent } from "#app/lib/consent-client.ts";
import { useRootData } from "#app/lib/site-context.ts";
import styles from "./ad-slot.module.css";

/**
 * A reserved advertising space (the original showed two placeholders on the home page). `label` names the landmark:
 * two on one page need different names. With ADSENSE_CLIENT and this slot's id, a reader who accepted the partner
 * gets an AdSense unit in it, inserted in the browser (the page itself, shared by every reader, has only the
 * placeholder); everyone else keeps the placeholder and loads nothing of the partner.
 */
export function AdSlot({ variant, label, slot }: { variant: "leaderboard" | "banner"; label: string; slot: AdSlotName }) {
  const { site } = useRootData();
  const consent = useConsent();
  const unitId = site.ads?.slots[slot] ?? null;
  const client = site.ads?.client ?? null;
  const showUnit = consent === "accepted" && client !== null && unitId !== null;
  return (
    <aside className={`${styles.slot} ${styles[variant]}`} aria-label={label} data-testid="ad-slot">
      <span className={styles.label}>{t.home.adLabel}</span>
      {showUnit ? <AdUnit client={client} unitId={unitId} /> : <span className={styles.text}>{t.home.adText}</span>}
    </aside>
  );
}

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

/** One AdSense unit: the partner's script is added to the page once, then each unit asks it for an ad. */
function AdUnit({ client, unitId }: { client: string; unitId: string }) {
  const unit = useRef<HTMLModElement>(null);
  useEffect(() => {
    if (!document.querySelector("script[data-ad-partner]")) {
      const script = document.createElement("script");
      script.async = true;
      script.crossOrigin = "anonymous";
      script.src = adsenseScriptUrl(client);
      script.dataset.adPartner = "adsense";
      document.head.append(script);
    }
    if (unit.current && !unit.current.dataset.requested) {
      unit.current.dataset.requested = "1";
      window.adsbygoogle = window.adsbygoogle ?? [];
      window.adsbygoogle.push({});
    }
  }, [client]);
  return (
    <ins
      ref={unit}
      className={`adsbygoogle ${styles.unit}`}
      data-ad-client={client}
      data-ad-slot={unitId}
      data-ad-format="auto"
      data-full-width-responsive="true"
      data-testid="ad-unit"
    />
  );
}
