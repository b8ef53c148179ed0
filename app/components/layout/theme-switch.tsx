import { t } from "#app/i18n/pt-BR.ts";
import { applyTheme, type ThemeChoice } from "#app/lib/theme.ts";
import styles from "./theme-switch.module.css";

/**
 * The header's theme switch: a native select ("Tema": Automático, Claro, Escuro) over the icon of the choice in force,
 * so the phone's own picker opens and keyboards and screen readers get a plain form control. The icon is drawn by the
 * stylesheet from `data-theme` (no state here). Hidden until the page is hydrated (without JavaScript the site
 * follows the device's preference); its place is kept, nothing moves.
 */
export function ThemeSwitch() {
  return (
    <div className={styles.switch} title={t.layout.theme}>
      <select
        ref={showChoice}
        className={styles.select}
        aria-label={t.layout.theme}
        defaultValue="auto"
        onChange={(event) => applyTheme(event.target.value as ThemeChoice)}
      >
        <option value="auto">{t.layout.themeAuto}</option>
        <option value="light">{t.layout.themeLight}</option>
        <option value="dark">{t.layout.themeDark}</option>
      </select>
    </div>
  );
}

/** Once hydrated, the select shows the choice in force (the server's HTML, the same for every reader, says "auto"). */
function showChoice(select: HTMLSelectElement | null) {
  if (select) select.value = document.documentElement.dataset.theme ?? "auto";
}
