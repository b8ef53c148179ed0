import { AlertTriangle, CheckCircle2, Info } from "lucide-react";
import styles from "./banner.module.css";

export type BannerKind = "success" | "error" | "warning";

/** A status line above a form. Success and warning are announced politely, errors at once. */
export function Banner({ kind, message }: { kind: BannerKind; message: string }) {
  const Icon = kind === "success" ? CheckCircle2 : kind === "error" ? AlertTriangle : Info;
  return (
    <div className={`${styles.banner} ${styles[kind]}`} role={kind === "error" ? "alert" : "status"} data-testid={`banner-${kind}`}>
      <Icon aria-hidden="true" size={20} />
      <p>{message}</p>
    </div>
  );
}
