import * as Dialog from "@radix-ui/react-dialog";
import { Handshake, List, ListChecks, LogOut, PlusCircle, ShieldCheck, X } from "lucide-react";
import type { RefObject } from "react";
import { Form, Link } from "react-router";
import { t } from "../../i18n/pt-BR.ts";
import styles from "./admin-drawer.module.css";

const ITEMS = [
  { to: "/add-news", label: t.admin.addNews, Icon: PlusCircle },
  { to: "/news-list", label: t.admin.newsList, Icon: List },
  { to: "/SponsorManager", label: t.admin.sponsors, Icon: Handshake },
] as const;

interface AdminDrawerProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The menu button: focus goes back to it when the drawer closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/** The admin menu: a 360 px drawer from the right (focus trapped, Escape closes, focus returns to the button). */
export function AdminDrawer({ open, onOpenChange, returnFocusTo }: AdminDrawerProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.drawer}
          aria-describedby={undefined}
          data-testid="admin-drawer"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <div className={styles.head}>
            <Dialog.Title className={styles.title}>{t.admin.drawerTitle}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label={t.admin.close} title={t.admin.close}>
              <X aria-hidden="true" size={22} />
            </Dialog.Close>
          </div>
          <nav aria-label={t.admin.drawerTitle}>
            <ul className={styles.list}>
              {ITEMS.map(({ to, label, Icon }) => (
                <li key={to}>
                  <Dialog.Close asChild>
                    <Link to={to} className={styles.item}>
                      <Icon aria-hidden="true" size={22} />
                      {label}
                    </Link>
                  </Dialog.Close>
                </li>
              ))}
              <li>
                <Form method="post" action="/admin/logout">
                  <button type="submit" className={`${styles.item} ${styles.logout}`}>
                    <LogOut aria-hidden="true" size={22} />
                    {t.admin.logout}
                  </button>
                </Form>
              </li>
            </ul>
          </nav>
          {/* The spec's four items above; the newsroom's own tools and account settings apart, below them. */}
          <Dialog.Close asChild>
            <Link to="/redacao" className={styles.secondaryLink}>
              <ListChecks aria-hidden="true" size={18} />
              {t.admin.newsroom}
            </Link>
          </Dialog.Close>
          <Dialog.Close asChild>
            <Link to="/admin/security" className={styles.secondaryLink}>
              <ShieldCheck aria-hidden="true" size={18} />
              {t.admin.security}
            </Link>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
