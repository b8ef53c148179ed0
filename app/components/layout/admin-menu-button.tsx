import { Menu } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { t } from "../../i18n/pt-BR.ts";
import styles from "./admin-drawer.module.css";

/** The drawer (and the dialog library it needs) is downloaded on the first click: readers never load it. */
const AdminDrawer = lazy(() => import("./admin-drawer.tsx").then((module) => ({ default: module.AdminDrawer })));

/** The admin's menu button in the header. It works as soon as the page is hydrated; the drawer loads when opened. */
export function AdminMenuButton() {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={styles.trigger}
        aria-label={t.admin.menu}
        title={t.admin.menu}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Menu aria-hidden="true" size={26} />
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <AdminDrawer open={open} onOpenChange={setOpen} returnFocusTo={trigger} />
        </Suspense>
      ) : null}
    </>
  );
}
