import { href } from "react-router";
import { useId } from "react";
import type { LiveCoverageInfo, LiveFormPage, LiveFormTexts } from "#app/lib/live-coverage.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import { cleanPaste } from "#app/components/admin/clean-paste.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./live-coverage.module.css";
import { LiveMatchFields } from "./live-match-fields.tsx";

interface LiveFormsProps {
  newsId: string;
  coverage: LiveCoverageInfo | null;
  /** Where the server sends the browser back (the page these forms are on). */
  back: LiveFormPage;
  /** The words, from the page's loader: this module has none, so the article's JavaScript carries no newsroom text. */
  texts: LiveFormTexts;
  id?: string;
}

/**
 * The newsroom's live coverage controls as plain HTML forms, posted to POST /api/news/:id/live (each one reloads the
 * page, which says what happened): start, resume, or end (with a box to check first); a plain-text update (its match
 * minute and event, key event, pinned); the scoreboard; turning the coverage off, with a box to check first. What a
 * newsroom member without JavaScript gets, on the article and on the edit page; with JavaScript the panel
 * (live-newsroom.tsx) takes their place once the page is hydrated.
 */
export function LiveForms({ newsId, coverage, back, texts, id: anchor }: LiveFormsProps) {
  const id = useId();
  const action = href("/api/news/:id/live", { id: newsId });
  const scoreboard = coverage?.scoreboard;
  const backField = <input type="hidden" name="back" value={back} />;
  return (
    <div id={anchor} className={styles.newsroom} data-testid="live-forms" data-coverage={coverage?.state ?? "off"}>
      <p className={styles.hint}>{texts.note}</p>
      <form method="post" action={action} className={styles.coverageControls}>
        {backField}
        {coverage?.state === "live" ? (
          <>
            {/* Asked first, as the panel's dialog does: the box says what ending does (the server refuses it unchecked). */}
            <label>
              <input type="checkbox" name="confirm" required /> {texts.endConfirmBox}
            </label>
            <button type="submit" name="intent" value="ended" className={buttons.secondary}>
              {texts.end}
            </button>
          </>
        ) : (
          <button type="submit" name="intent" value="live" className={buttons.primary}>
            {coverage ? texts.resume : texts.start}
          </button>
        )}
      </form>
      {coverage ? (
        <>
          {/* Multipart: the text goes as it is (no percent-encoding), well under the server's cap on a form's size. */}
          <form method="post" action={action} encType="multipart/form-data" className={styles.composer} onPaste={cleanPaste}>
            {backField}
            <h3 className={styles.composerTitle}>{texts.composerTitle}</h3>
            <LiveMatchFields id={`${id}-post`} texts={texts} />
            <label htmlFor={`${id}-text`}>{texts.textLabel}</label>
            <textarea id={`${id}-text`} name="text" rows={3} maxLength={LIVE_LIMITS.updateText} required aria-describedby={`${id}-hint`} />
            <p id={`${id}-hint`} className={styles.hint}>
              {texts.textHint}
            </p>
            <div className={styles.checks}>
              <label>
                <input type="checkbox" name="keyEvent" /> {texts.keyEvent}
              </label>
              <label>
                <input type="checkbox" name="pinned" /> {texts.pinned}
              </label>
              {texts.alertOption ? (
                <label>
                  <input type="checkbox" name="alert" /> {texts.alertOption}
                </label>
              ) : null}
            </div>
            <button type="submit" name="intent" value="post" className={buttons.primary}>
              {texts.post}
            </button>
          </form>
          <form method="post" action={action} className={styles.composer} onPaste={cleanPaste}>
            {backField}
            <h3 className={styles.composerTitle}>{texts.scoreboardTitle}</h3>
            <div className={styles.teams}>
              {(["home", "away"] as const).map((side) => (
                <div key={side} className={styles.teamEditor}>
                  <label htmlFor={`${id}-${side}`}>{texts[side]}</label>
                  <input id={`${id}-${side}`} name={side} defaultValue={scoreboard?.[side] ?? ""} maxLength={LIVE_LIMITS.teamName} required />
                  <label htmlFor={`${id}-${side}Score`}>{texts[`${side}Score`]}</label>
                  <input
                    id={`${id}-${side}Score`}
                    name={`${side}Score`}
                    type="number"
                    min={0}
                    max={LIVE_LIMITS.scoreMax}
                    defaultValue={scoreboard?.[`${side}Score`] ?? 0}
                    required
                  />
                </div>
              ))}
            </div>
            <label htmlFor={`${id}-period`}>{texts.period}</label>
            <input id={`${id}-period`} name="period" defaultValue={scoreboard?.period ?? ""} maxLength={LIVE_LIMITS.period} />
            <button type="submit" name="intent" value="scoreboard" className={buttons.primary}>
              {texts.saveScoreboard}
            </button>
          </form>
          <form method="post" action={action} className={styles.composer}>
            {backField}
            <label>
              <input type="checkbox" name="confirm" required /> {texts.turnOffConfirmBox}
            </label>
            <button type="submit" name="intent" value="off" className={`${buttons.secondary} ${styles.danger}`}>
              {texts.turnOff}
            </button>
          </form>
        </>
      ) : null}
    </div>
  );
}
