import { Fragment, type Node as PmNode, Slice } from "@tiptap/pm/model";
import { cleanText } from "#app/lib/clean-text.ts";

/**
 * A paste into the body editor, cleaned as the server cleans a save (app/lib/clean-text.ts); the form fields' own
 * cleaning is clean-paste.ts.
 */

/** The text nodes of a pasted ProseMirror fragment, cleaned (a node left empty goes). */
function cleanFragment(fragment: Fragment): Fragment {
  const nodes: PmNode[] = [];
  fragment.forEach((node) => {
    if (node.isText) {
      const text = cleanText(node.text ?? "", { lines: false });
      if (text !== "") nodes.push(node.type.schema.text(text, node.marks));
    } else nodes.push(node.copy(cleanFragment(node.content)));
  });
  return Fragment.fromArray(nodes);
}

/** For the body editor's `transformPasted`: the pasted slice (from HTML or plain text) with every text cleaned. */
export function cleanPastedSlice(slice: Slice): Slice {
  return new Slice(cleanFragment(slice.content), slice.openStart, slice.openEnd);
}
