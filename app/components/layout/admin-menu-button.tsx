import { Menu } from "lucide-react";
import { lazy } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import { useLazyDialog } from "#app/components/ui/use-lazy-dialog.tsx";
import styles from "./admin-drawer.module.css";

/** The drawer (and the dialog library it needs) is downloaded on the first click: readers never load it. */
const AdminDrawer = lazy(() => import("./admin-drawer.tsx").then((module) => ({ default: module.AdminDrawer })));

/** The admin's menu button in the header. It works as soon as the page is hydrated; the drawer loads when opened. */
export function AdminMenuButton() {
  const drawer = useLazyDialog(AdminDrawer);
  return (
    <>
      <button
        ref={drawer.trigger}
        type="button"
        className={styles.trigger}
        aria-label={t.admin.menu}
        title={t.admin.menu}
        aria-haspopup="dialog"
        aria-expanded={drawer.open}
        onClick={drawer.show}
      >
        <Menu aria-hidden="true" size={26} />
      </button>
      {drawer.dialog({})}
    </>
  );
}
