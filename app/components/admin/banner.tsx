import { AlertTriangle, CheckCircle2, Info } from "lucide-react";
import styles from "./banner.module.css";

export type BannerKind = "success" | "error" | "warning";

/** A status line above a form. Success and warning are announced politely, errors at once. */
export function Banner({ kind, message, ref }: { kind: BannerKind; message: string; ref?: React.Ref<HTMLDivElement> }) {
  const Icon = kind === "success" ? CheckCircle2 : kind === "error" ? AlertTriangle : Info;
  return (
    <div ref={ref} className={`${styles.banner} ${styles[kind]}`} role={kind === "error" ? "alert" : "status"} data-testid={`banner-${kind}`}>
      <Icon aria-hidden="true" size={20} />
      <p>{message}</p>
    </div>
  );
}
