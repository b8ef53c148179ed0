import { Check, Link2, Share2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import { FacebookIcon, TelegramIcon, TwitterIcon, WhatsAppIcon } from "#app/components/ui/social-icons.tsx";
import buttons from "#app/components/ui/button.module.css";
import styles from "./share-buttons.module.css";

interface ShareButtonsProps {
  /** The article's canonical address (absolute). */
  url: string;
  title: string;
}

/** The apps' own share pages, WhatsApp first (where Brazilian readers share). */
function shareTargets(url: string, title: string) {
  const text = encodeURIComponent(title);
  const link = encodeURIComponent(url);
  return [
    { name: "WhatsApp", href: `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}`, Icon: WhatsAppIcon },
    { name: "X", href: `https://x.com/intent/post?text=${text}&url=${link}`, Icon: TwitterIcon },
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${link}`, Icon: FacebookIcon },
    { name: "Telegram", href: `https://t.me/share/url?url=${link}&text=${text}`, Icon: TelegramIcon },
  ];
}

/**
 * The same links under the headline, as a row of icons (each named for screen readers): a reader who shares does so
 * before scrolling through the story.
 */
export function ShareIcons({ url, title }: ShareButtonsProps) {
  return (
    <ul className={styles.icons} aria-label={t.share.title} data-testid="share-top">
      {shareTargets(url, title).map(({ name, href, Icon }) => (
        <li key={name}>
          <a className={styles.icon} href={href} target="_blank" rel="noopener noreferrer" aria-label={t.share.on(name)} title={t.share.on(name)}>
            <Icon size={18} />
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * Sharing an article: plain links to each app's own share page (no script of theirs is loaded, nothing is sent
 * until the reader clicks), "Copiar link", and the phone's share sheet where the browser has one (Web Share API).
 */
export function ShareButtons({ url, title }: ShareButtonsProps) {
  const [canShare, setCanShare] = useState(false);
  const [canCopy, setCanCopy] = useState(false);
  const [copied, setCopied] = useState<"ok" | "failed" | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    setCanShare(typeof navigator.share === "function");
    setCanCopy(Boolean(navigator.clipboard?.writeText));
    return () => clearTimeout(timer.current);
  }, []);

  const targets = shareTargets(url, title);

  async function copy() {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(url);
      setCopied("ok");
    } catch {
      setCopied("failed");
    }
    timer.current = setTimeout(() => setCopied(null), 3000);
  }

  return (
    <section className={styles.share} aria-labelledby="compartilhar-titulo">
      <h2 id="compartilhar-titulo" className={styles.title}>
        {t.share.title}
      </h2>
      <ul className={styles.list}>
        {canShare ? (
          <li>
            <button type="button" className={buttons.pill} onClick={() => void navigator.share({ title, url }).catch(() => undefined)}>
              <Share2 aria-hidden="true" size={18} /> {t.share.native}
            </button>
          </li>
        ) : null}
        {targets.map(({ name, href, Icon }) => (
          <li key={name}>
            <a className={buttons.pill} href={href} target="_blank" rel="noopener noreferrer" aria-label={t.share.on(name)}>
              <Icon size={18} /> <span aria-hidden="true">{name}</span>
            </a>
          </li>
        ))}
        {canCopy ? (
          <li>
            <button type="button" className={buttons.pill} onClick={() => void copy()}>
              {copied === "ok" ? <Check aria-hidden="true" size={18} /> : <Link2 aria-hidden="true" size={18} />} {t.share.copy}
            </button>
          </li>
        ) : null}
      </ul>
      <p className={styles.status} role="status" aria-live="polite">
        {copied === "ok" ? t.share.copied : copied === "failed" ? t.share.copyFailed : ""}
      </p>
    </section>
  );
}
