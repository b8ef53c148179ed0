import { Moon, Sun, SunMoon } from "lucide-react";
import { t } from "../../i18n/pt-BR.ts";
import { applyTheme, type ThemeChoice, useTheme } from "../../lib/theme.ts";
import styles from "./theme-switch.module.css";

const ICONS = { auto: SunMoon, light: Sun, dark: Moon } as const;

/**
 * The header's theme switch: a native select ("Tema": Automático, Claro, Escuro) over the icon of the choice in force,
 * so the phone's own picker opens and keyboards and screen readers get a plain form control. Hidden until the page is
 * hydrated (without JavaScript the site follows the device's preference); its place is kept, nothing moves.
 */
export function ThemeSwitch() {
  const theme = useTheme();
  const Icon = ICONS[theme];
  return (
    <div className={styles.switch} title={`${t.layout.theme}: ${labelOf(theme)}`}>
      <Icon aria-hidden="true" size={22} />
      <select className={styles.select} aria-label={t.layout.theme} value={theme} onChange={(event) => applyTheme(event.target.value as ThemeChoice)}>
        <option value="auto">{t.layout.themeAuto}</option>
        <option value="light">{t.layout.themeLight}</option>
        <option value="dark">{t.layout.themeDark}</option>
      </select>
    </div>
  );
}

function labelOf(theme: ThemeChoice): string {
  return theme === "light" ? t.layout.themeLight : theme === "dark" ? t.layout.themeDark : t.layout.themeAuto;
}
