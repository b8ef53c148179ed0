import * as Dialog from "@radix-ui/react-dialog";
import {
  ClipboardCheck,
  Handshake,
  List,
  ListChecks,
  ListOrdered,
  LogOut,
  Newspaper,
  PlusCircle,
  Shield,
  ShieldCheck,
  UserRound,
  Users,
  X,
} from "lucide-react";
import type { RefObject } from "react";
import { Form, href, Link } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { type MenuPath, seesMenuItem } from "#app/lib/roles.ts";
import { useRootData } from "#app/lib/site-context.ts";
import styles from "./admin-drawer.module.css";

/** The drawer's main items; who sees each is the menu's rule (`seesMenuItem`, app/lib/roles.ts). */
const ITEMS: ReadonlyArray<{ to: MenuPath; label: string; Icon: typeof List }> = [
  { to: "/add-news", label: t.admin.addNews, Icon: PlusCircle },
  { to: "/news-list", label: t.admin.newsList, Icon: List },
  { to: "/SponsorManager", label: t.admin.sponsors, Icon: Handshake },
];

interface AdminDrawerProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The menu button: focus goes back to it when the drawer closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/** The admin menu: a 360 px drawer from the right (focus trapped, Escape closes, focus returns to the button). */
export function AdminDrawer({ open, onOpenChange, returnFocusTo }: AdminDrawerProps) {
  const { role, reviewCount } = useRootData();
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
              {ITEMS.filter((item) => seesMenuItem(role, item.to)).map(({ to, label, Icon }) => (
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
                <Form method="post" action={href("/admin/logout")}>
                  <button type="submit" className={`${styles.item} ${styles.logout}`}>
                    <LogOut aria-hidden="true" size={22} />
                    {t.admin.logout}
                  </button>
                </Form>
              </li>
            </ul>
          </nav>
          {/* The spec's four items above; the newsroom's own tools and account settings apart, below them. */}
          <DrawerLink to="/redacao" Icon={ListChecks} label={t.admin.newsroom} />
          <DrawerLink to="/capa" Icon={Newspaper} label={t.admin.frontPage} />
          <DrawerLink to="/times" Icon={Shield} label={t.admin.teams} />
          {/* The stories waiting for review (counted for those who decide them, and only shown when there are some), as
              a link to the list's "Em revisão" filter. */}
          {reviewCount ? (
            <DrawerLink
              to="/redacao"
              search="?situacao=em-revisao"
              Icon={ClipboardCheck}
              label={t.admin.inReview(reviewCount)}
              testId="drawer-review"
            />
          ) : null}
          {/* The team (members, invitations, roles). */}
          <DrawerLink to="/equipe" Icon={Users} label={t.admin.team} />
          {/* The member's own public profile (name, bio, photo, links). */}
          <DrawerLink to="/perfil" Icon={UserRound} label={t.admin.profile} />
          <DrawerLink to="/secoes" Icon={ListOrdered} label={t.admin.sectionMenu} />
          {/* Account settings (the member's own 2FA). */}
          <DrawerLink to="/admin/security" Icon={ShieldCheck} label={t.admin.security} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * One of the drawer's secondary links (the newsroom's tools, the account): closes the drawer as it navigates. Drawn
 * only for a role the menu shows `to` to (`seesMenuItem`); `search` is added to the address.
 */
function DrawerLink({ to, search = "", Icon, label, testId }: { to: MenuPath; search?: string; Icon: typeof List; label: string; testId?: string }) {
  const { role } = useRootData();
  if (!seesMenuItem(role, to)) return null;
  return (
    <Dialog.Close asChild>
      <Link to={to + search} className={styles.secondaryLink} data-testid={testId}>
        <Icon aria-hidden="true" size={18} />
        {label}
      </Link>
    </Dialog.Close>
  );
}
