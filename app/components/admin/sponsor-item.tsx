import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { Form, href } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import type { SponsorView } from "#app/lib/news-view.ts";
import type { SponsorActionResult } from "#app/lib/sponsor-schema.ts";
import { MediaImage } from "#app/components/news/media-image.tsx";
import buttons from "#app/components/ui/button.module.css";
import { SponsorFieldInputs } from "./sponsor-fields.tsx";
import styles from "./sponsor-manager.module.css";

/**
 * One sponsor of the list: its logo, name, place and state; the buttons that move it up and down; its edit form
 * (open when the last save of it was refused); the confirmation step a delete without JavaScript gets; the delete
 * button (with JavaScript it asks `onDelete`, which opens the dialog).
 */
export function SponsorItem({
  sponsor,
  index,
  count,
  busy,
  saving,
  result,
  onDelete,
}: {
  sponsor: SponsorView;
  /** Its place in the list, from 0, of `count`. */
  index: number;
  count: number;
  /** A post about it is under way. */
  busy: boolean;
  /** That post is a save of its edit form. */
  saving: boolean;
  /** The last answer of the page, whatever it was about. */
  result: SponsorActionResult | undefined;
  onDelete(sponsor: SponsorView, button: HTMLButtonElement): void;
}) {
  const itemErrors = result?.intent === "update" && result.id === sponsor.id ? (result.fields ?? {}) : {};
  return (
    <li className={styles.item} data-testid="sponsor-item" aria-busy={busy}>
      <MediaImage media={sponsor.image} alt={sponsor.name} sizes="200px" className={styles.logo} width={160} height={160} />
      <p className={styles.name}>{sponsor.name}</p>
      <p className={styles.position}>{t.sponsors.position(index + 1, count)}</p>
      {sponsor.active ? null : <p className={styles.inactive}>{t.sponsors.inactive}</p>}
      <div className={styles.moves}>
        {(["up", "down"] as const).map((direction) => {
          const target = direction === "up" ? index : index + 2;
          const disabled = (direction === "up" ? index === 0 : index === count - 1) || busy;
          return (
            <Form method="post" key={direction}>
              <input type="hidden" name="intent" value="move" />
              <input type="hidden" name="id" value={sponsor.id} />
              <input type="hidden" name="name" value={sponsor.name} />
              <input type="hidden" name="position" value={target} />
              <button
                type="submit"
                className={styles.move}
                disabled={disabled}
                data-move-for={sponsor.id}
                data-move-direction={direction}
                aria-label={direction === "up" ? t.sponsors.moveUp(sponsor.name) : t.sponsors.moveDown(sponsor.name)}
              >
                {direction === "up" ? <ArrowUp aria-hidden="true" size={18} /> : <ArrowDown aria-hidden="true" size={18} />}
              </button>
            </Form>
          );
        })}
      </div>
      <details className={styles.edit} open={Object.keys(itemErrors).length > 0 || undefined}>
        <summary>{t.sponsors.edit(sponsor.name)}</summary>
        <Form method="post" className={styles.editForm} noValidate>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={sponsor.id} />
          <SponsorFieldInputs idPrefix={`patrocinador-${sponsor.id}`} sponsor={sponsor} errorOf={(field) => itemErrors[field]?.[0] ?? null} />
          <button type="submit" className={buttons.primary} disabled={busy}>
            {saving ? t.sponsors.saving : t.sponsors.save}
          </button>
        </Form>
      </details>
      {result?.confirm && result.id === sponsor.id ? (
        <Form method="post" className={styles.confirm} role="group" aria-label={t.sponsors.deleteTitle}>
          <p>{t.sponsors.deleteText(sponsor.name)}</p>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={sponsor.id} />
          <input type="hidden" name="confirmed" value="yes" />
          <div className={styles.addActions}>
            <a href={href("/SponsorManager")} className={buttons.secondary}>
              {t.sponsors.deleteCancel}
            </a>
            <button type="submit" className={buttons.primary}>
              {t.sponsors.deleteConfirm}
            </button>
          </div>
        </Form>
      ) : null}
      <Form method="post">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={sponsor.id} />
        <button
          type="submit"
          className={styles.delete}
          disabled={busy}
          aria-label={t.sponsors.delete(sponsor.name)}
          onClick={(event) => {
            // With JavaScript: the alert dialog asks first (without it, the server's confirmation does).
            event.preventDefault();
            onDelete(sponsor, event.currentTarget);
          }}
        >
          <Trash2 aria-hidden="true" size={18} />
        </button>
      </Form>
    </li>
  );
}
