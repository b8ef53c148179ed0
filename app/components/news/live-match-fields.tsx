import { t } from "#app/i18n/pt-BR.ts";
import { LIVE_EVENT_TYPES, type LiveEventType } from "#app/lib/live-coverage.ts";
import styles from "./live-coverage.module.css";

/** The words of the two fields (the newsroom's: the plain forms get them from the page's loader). */
export interface LiveMatchFieldTexts {
  minuteLabel: string;
  minuteHint: string;
  eventLabel: string;
  eventNone: string;
}

interface LiveMatchFieldsProps {
  /** The fields' ids start with it. */
  id: string;
  texts: LiveMatchFieldTexts;
  /** Controlled (the composer, an update being edited); without it the fields are a plain form's, named `minute` and `eventType`. */
  value?: { minute: string; eventType: LiveEventType | "" };
  onChange?: (value: { minute: string; eventType: LiveEventType | "" }) => void;
  /** The server's refusal of the minute or of the event, said under the row (and the field marked invalid). */
  errors?: { minute?: string | undefined; eventType?: string | undefined };
  disabled?: boolean;
}

/**
 * An update's match minute ("32", "45+2") and event (gol, cartão…), side by side in one row (a 390 px phone keeps
 * them on one line): the same fields in the plain form (live-forms.tsx), the composer and the editing of an update
 * (live-update-editor.tsx). The server checks both (live-input.server.ts); the phone's keyboard is the telephone
 * one, which has the digits and the "+".
 */
export function LiveMatchFields({ id, texts, value, onChange, errors, disabled }: LiveMatchFieldsProps) {
  const minuteId = `${id}-minuto`;
  const eventId = `${id}-lance`;
  const hintId = `${id}-minuto-dica`;
  const minuteErrorId = `${id}-minuto-erro`;
  const eventErrorId = `${id}-lance-erro`;
  const controlled = value !== undefined;
  return (
    <div className={styles.matchFields} data-testid="live-match-fields">
      <div className={styles.minuteField}>
        <label htmlFor={minuteId}>{texts.minuteLabel}</label>
        <input
          id={minuteId}
          name={controlled ? undefined : "minute"}
          inputMode="tel"
          autoComplete="off"
          maxLength={8}
          size={6}
          aria-describedby={[hintId, errors?.minute ? minuteErrorId : ""].filter(Boolean).join(" ")}
          aria-invalid={errors?.minute ? true : undefined}
          disabled={disabled}
          {...(controlled
            ? { value: value.minute, onChange: (event) => onChange?.({ ...value, minute: event.target.value }) }
            : { defaultValue: "" })}
        />
      </div>
      <div className={styles.eventField}>
        <label htmlFor={eventId}>{texts.eventLabel}</label>
        <select
          id={eventId}
          name={controlled ? undefined : "eventType"}
          aria-describedby={errors?.eventType ? eventErrorId : undefined}
          aria-invalid={errors?.eventType ? true : undefined}
          disabled={disabled}
          {...(controlled
            ? { value: value.eventType, onChange: (event) => onChange?.({ ...value, eventType: event.target.value as LiveEventType | "" }) }
            : { defaultValue: "" })}
        >
          <option value="">{texts.eventNone}</option>
          {LIVE_EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t.live.events[type]}
            </option>
          ))}
        </select>
      </div>
      <p id={hintId} className={styles.hint}>
        {texts.minuteHint}
      </p>
      {errors?.minute ? (
        <p id={minuteErrorId} className={styles.error} role="alert">
          {errors.minute}
        </p>
      ) : null}
      {errors?.eventType ? (
        <p id={eventErrorId} className={styles.error} role="alert">
          {errors.eventType}
        </p>
      ) : null}
    </div>
  );
}
