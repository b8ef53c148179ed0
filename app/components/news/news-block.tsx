import type { ReactNode } from "react";
import styles from "./news-block.module.css";

/** A block's own classes, added to the shared ones (news-block.module.css). */
export interface NewsBlockClasses {
  block?: string | undefined;
  title?: string | undefined;
  list?: string | undefined;
  item?: string | undefined;
}

/**
 * A titled block of stories after a page's main content ("Leia também", "Mais lidas"): a section named by its
 * heading, with a list of `items` (numbered when `ordered`), each drawn by `renderItem`. Nothing at all when there
 * is none.
 */
export function NewsBlock<T extends { id: string }>({
  titleId,
  title,
  testId,
  items,
  ordered = false,
  classes = {},
  renderItem,
}: {
  titleId: string;
  title: string;
  testId: string;
  items: readonly T[];
  ordered?: boolean;
  classes?: NewsBlockClasses;
  renderItem: (item: T) => ReactNode;
}) {
  if (items.length === 0) return null;
  const List = ordered ? "ol" : "ul";
  const join = (...names: Array<string | undefined>) => names.filter(Boolean).join(" ");
  return (
    <section aria-labelledby={titleId} className={join(styles.block, classes.block)} data-testid={testId}>
      <h2 id={titleId} className={join(styles.title, classes.title)}>
        {title}
      </h2>
      <List className={join(styles.list, classes.list)}>
        {items.map((item) => (
          <li key={item.id} className={classes.item}>
            {renderItem(item)}
          </li>
        ))}
      </List>
    </section>
  );
}
