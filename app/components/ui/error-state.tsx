import { Link } from "react-router";
import buttons from "./button.module.css";
import styles from "./error-state.module.css";

export function ErrorState(props: {
  title: string;
  text?: string;
  actionLabel: string;
  actionTo?: string;
  status?: number;
  /** Without the picture (offline: it could not be loaded either). */
  plain?: boolean;
}) {
  return (
    <section className={styles.box} role="alert">
      {props.plain ? null : <img src="/images/bola-padrao.svg" alt="" width={160} height={90} className={styles.image} />}
      <h1 className={styles.title}>{props.title}</h1>
      {props.text ? <p className={styles.text}>{props.text}</p> : null}
      <Link to={props.actionTo ?? "/"} className={`${buttons.primary} ${styles.action}`}>
        {props.actionLabel}
      </Link>
    </section>
  );
}
