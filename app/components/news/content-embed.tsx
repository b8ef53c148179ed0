import { Play } from "lucide-react";
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import type { Embed } from "#app/lib/embeds.ts";
import styles from "./content-embed.module.css";

/**
 * A post from YouTube, Instagram, X or TikTok inside an article. Until the reader clicks, it is a static block that
 * loads nothing from the provider: a link to the post (what it stays without JavaScript) with the provider's name
 * and a notice that clicking loads content from there. The click swaps it for the provider's player in an iframe.
 */
export function ContentEmbed({ embed }: { embed: Embed }) {
  const [loaded, setLoaded] = useState(false);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const provider = t.embed.providers[embed.provider];

  useEffect(() => {
    if (loaded) frameRef.current?.focus();
  }, [loaded]);

  const load = (event: MouseEvent<HTMLAnchorElement>) => {
    // Ctrl/⌘-click and middle click still open the post on the provider's site.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setLoaded(true);
  };

  return (
    <figure className={`${styles.embed} ${styles[embed.provider]} ${loaded ? styles.loaded : ""}`} data-embed={embed.provider}>
      {loaded ? (
        <iframe
          ref={frameRef}
          className={styles.frame}
          src={embed.frameSrc}
          title={t.embed.frameTitle(provider)}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
          sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-presentation"
        />
      ) : (
        <a className={styles.facade} href={embed.href} target="_blank" rel="noopener noreferrer" onClick={load}>
          <span className={styles.play} aria-hidden="true">
            <Play size={22} fill="currentColor" />
          </span>
          <span className={styles.label}>{t.embed.load(provider)}</span>
          <span className={styles.notice}>{t.embed.notice(provider)}</span>
        </a>
      )}
    </figure>
  );
}
