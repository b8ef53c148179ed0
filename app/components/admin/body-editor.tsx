import { Extension } from "@tiptap/core";
import Link from "@tiptap/extension-link";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  Bold,
  Film,
  Heading2,
  Heading3,
  ImageUp,
  Italic,
  Link2,
  List,
  ListOrdered,
  type LucideIcon,
  Minus,
  Pilcrow,
  Quote,
  Redo2,
  Undo2,
  X,
} from "lucide-react";
import { Fragment, useEffect, useRef, useState } from "react";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { EmbedDialog, ImageDialog, type InsertedImage, LinkDialog } from "./body-block-dialogs.tsx";
import { cleanPastedSlice } from "./clean-pasted-slice.ts";
import { embedPastedLinks, type PasteLeftOut, structurePastedHtml } from "./paste-structure.ts";
import { EmbedBlock, ImageBlock, withoutPreviews } from "./body-blocks.ts";
import { t } from "#app/i18n/newsroom.ts";
import { type RichDoc, safeHref } from "#app/lib/rich-text.ts";
import styles from "./body-editor.module.css";

export interface BodyEditorProps {
  /** The document the editor opens with (read once). */
  initial: RichDoc;
  onChange(doc: RichDoc): void;
  /** The visible label's id (the editable area is named by it) and the error's id, when there is one. */
  labelId: string;
  errorId?: string | undefined;
  invalid: boolean;
  disabled: boolean;
  /** The editable area's test id: "body-editor" (the news form's) unless given (the live composer's, on the same page). */
  testId?: string;
}

/** One button of the editor's toolbar. */
interface ToolbarItem {
  label: string;
  Icon: LucideIcon;
  onClick: () => void;
  /** Whether the selection has it (a toggle's `aria-pressed`); absent for a button that is not a toggle. */
  pressed?: boolean;
  /** Whether it can act now (undo, redo); true when absent. */
  enabled?: boolean;
}

/**
 * The news body's rich-text editor (Tiptap 3 on ProseMirror), loaded only by the newsroom's form and by a live
 * update's composer and editing (components/news/live-update-editor.tsx), a lazy chunk of its own. The schema is the
 * one the server accepts (app/lib/rich-text-schema.ts): paragraphs, subheads (h2, h3),
 * bold, italic, links (http, https, mailto), lists, quotes, rules, line breaks, images of the store ("Imagem": uploaded
 * through POST /api/media, with description, caption and credit) and posts of YouTube, Instagram, X or TikTok
 * ("Incorporar"); anything else a paste brings is
 * dropped by the schema's parsing (scripts, styles, event handlers, unknown tags). Shortcuts: Ctrl+B, Ctrl+I,
 * Ctrl+K (link), Ctrl+Alt+2/3 (subheads), Ctrl+Shift+7/8 (lists), Ctrl+Shift+B (quote), Ctrl+Z / Ctrl+Shift+Z.
 */
export default function BodyEditor({ initial, onChange, labelId, errorId, invalid, disabled, testId = "body-editor" }: BodyEditorProps) {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const openLinkDialog = (editor: Editor) => {
    const current = (editor.getAttributes("link").href as string | undefined) ?? "";
    setDialog({ kind: "link", current, askText: editor.state.selection.empty && !editor.isActive("link") });
  };
  const editLinkRef = useRef(openLinkDialog);
  editLinkRef.current = openLinkDialog;
  /** What the last paste could not keep (images, embedded frames), said under the toolbar until dismissed. */
  const [leftOut, setLeftOut] = useState<PasteLeftOut | null>(null);

  const editor = useEditor({
    immediatelyRender: false,
    content: initial,
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        strike: false,
        underline: false,
        link: false,
      }),
      // Typing right after a link does not extend it (Tiptap's link is inclusive while autolink is on).
      Link.extend({ inclusive: () => false }).configure({
        openOnClick: false,
        autolink: true,
        linkOnPaste: true,
        defaultProtocol: "https",
        // Only what the server keeps: a pasted javascript: or data: link is text, not a link.
        isAllowedUri: (url) => safeHref(url) !== null,
        HTMLAttributes: { target: null, rel: null },
      }),
      ImageBlock,
      EmbedBlock,
      Extension.create({
        name: "linkShortcut",
        addKeyboardShortcuts() {
          return {
            "Mod-k": ({ editor }) => {
              editLinkRef.current(editor as Editor);
              return true;
            },
          };
        },
      }),
    ],
    editorProps: {
      attributes: {
        class: styles.content!,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        "data-testid": testId,
      },
      // A paste from Google Docs, Word or a web page keeps its subheads, tables (as rows) and lists, says what it
      // could not keep (paste-structure.ts), and loses the characters nobody sees (app/lib/clean-text.ts), as a
      // save would; a post's address alone on a line becomes its embed block.
      transformPastedHTML: (html) => {
        let counts: PasteLeftOut | null = null;
        const structured = structurePastedHtml(html, (found) => {
          counts = found;
        });
        setLeftOut(counts);
        return structured;
      },
      transformPasted: (slice, view) => embedPastedLinks(cleanPastedSlice(slice), view),
      // A tap on an image of the body opens its texts, another file and removal. Heard on the DOM: ProseMirror's own
      // click handling skips a node that is already selected (it may be the start of a drag).
      handleDOMEvents: {
        click: (view, event) => {
          const figure = event.target instanceof Element ? event.target.closest("figure[data-body-image]") : null;
          if (!figure || !view.dom.contains(figure) || !view.editable) return false;
          const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
          const pos = at && at.inside >= 0 ? at.inside : null;
          const node = pos === null ? null : view.state.doc.nodeAt(pos);
          if (pos === null || node?.type.name !== "image") return false;
          setDialog({ kind: "editImage", pos, image: node.attrs as InsertedImage });
          return true;
        },
      },
    },
    // Only edits: setEditable also sends an update (the toolbar's state needs it), which is no change to save.
    onUpdate: ({ editor, transaction }) => {
      if (transaction.docChanged) onChangeRef.current(withoutPreviews(editor.getJSON() as RichDoc));
    },
  });

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  useEffect(() => {
    if (!editor) return;
    editor.view.dom.setAttribute("aria-invalid", invalid ? "true" : "false");
    if (errorId) editor.view.dom.setAttribute("aria-describedby", errorId);
    else editor.view.dom.removeAttribute("aria-describedby");
  }, [editor, invalid, errorId]);

  const state = useEditorState({
    editor,
    selector: ({ editor }) =>
      editor
        ? {
            paragraph: editor.isActive("paragraph"),
            h2: editor.isActive("heading", { level: 2 }),
            h3: editor.isActive("heading", { level: 3 }),
            bold: editor.isActive("bold"),
            italic: editor.isActive("italic"),
            link: editor.isActive("link"),
            bulletList: editor.isActive("bulletList"),
            orderedList: editor.isActive("orderedList"),
            blockquote: editor.isActive("blockquote"),
            canUndo: editor.can().undo(),
            canRedo: editor.can().redo(),
          }
        : null,
  });

  if (!editor || !state) return <div className={styles.loading} aria-hidden="true" />;

  const run = (command: (chain: ReturnType<Editor["chain"]>) => ReturnType<Editor["chain"]>) => () => command(editor.chain().focus()).run();
  const closeDialog = () => {
    setDialog(null);
    editor.commands.focus();
  };
  // The toolbar, group by group (a separator between groups): what each button says, draws and does, whether it is
  // on (`pressed`: the selection has it) and whether it can act now.
  const toolbar: ToolbarItem[][] = [
    [
      { label: t.richText.paragraph, Icon: Pilcrow, onClick: run((c) => c.setParagraph()), pressed: state.paragraph },
      { label: t.richText.heading2, Icon: Heading2, onClick: run((c) => c.toggleHeading({ level: 2 })), pressed: state.h2 },
      { label: t.richText.heading3, Icon: Heading3, onClick: run((c) => c.toggleHeading({ level: 3 })), pressed: state.h3 },
    ],
    [
      { label: t.richText.bold, Icon: Bold, onClick: run((c) => c.toggleBold()), pressed: state.bold },
      { label: t.richText.italic, Icon: Italic, onClick: run((c) => c.toggleItalic()), pressed: state.italic },
      { label: t.richText.link, Icon: Link2, onClick: () => openLinkDialog(editor), pressed: state.link },
    ],
    [
      { label: t.richText.bulletList, Icon: List, onClick: run((c) => c.toggleBulletList()), pressed: state.bulletList },
      { label: t.richText.orderedList, Icon: ListOrdered, onClick: run((c) => c.toggleOrderedList()), pressed: state.orderedList },
      { label: t.richText.blockquote, Icon: Quote, onClick: run((c) => c.toggleBlockquote()), pressed: state.blockquote },
      { label: t.richText.horizontalRule, Icon: Minus, onClick: run((c) => c.setHorizontalRule()) },
    ],
    [
      { label: blocksText.image, Icon: ImageUp, onClick: () => setDialog({ kind: "image" }) },
      { label: blocksText.embed, Icon: Film, onClick: () => setDialog({ kind: "embed" }) },
    ],
    [
      { label: t.richText.undo, Icon: Undo2, onClick: run((c) => c.undo()), enabled: state.canUndo },
      { label: t.richText.redo, Icon: Redo2, onClick: run((c) => c.redo()), enabled: state.canRedo },
    ],
  ];

  return (
    <div className={styles.editor} data-invalid={invalid}>
      <div className={styles.toolbar} role="toolbar" aria-label={t.richText.toolbar} aria-controls={editor.view.dom.id || undefined}>
        {toolbar.map((group, index) => (
          <Fragment key={group[0]!.label}>
            {index > 0 ? <span className={styles.separator} aria-hidden="true" /> : null}
            {group.map(({ label, Icon, onClick, pressed, enabled = true }) => (
              <button
                key={label}
                type="button"
                className={styles.button}
                aria-label={label}
                title={label}
                aria-pressed={pressed}
                onClick={onClick}
                disabled={disabled || !enabled}
              >
                <Icon size={18} aria-hidden="true" />
              </button>
            ))}
          </Fragment>
        ))}
      </div>
      {leftOut ? (
        <div className={styles.notice} role="status" data-testid="paste-left-out">
          <span>{blocksText.pasteLeftOut(leftOut)}</span>
          <button
            type="button"
            className={styles.noticeClose}
            aria-label={blocksText.dismiss}
            title={blocksText.dismiss}
            onClick={() => setLeftOut(null)}
          >
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      ) : null}
      <EditorContent editor={editor} />
      {dialog?.kind === "link" ? (
        <LinkDialog
          current={dialog.current}
          askText={dialog.askText}
          onClose={closeDialog}
          onApply={({ href, text }) => {
            setDialog(null);
            if (dialog.askText) {
              // Nothing selected: the words (or the address) go in as the link's text.
              editor
                .chain()
                .focus()
                .insertContent({ type: "text", text: text || href, marks: [{ type: "link", attrs: { href } }] })
                .run();
            } else editor.chain().focus().extendMarkRange("link").setLink({ href }).run();
          }}
          onRemove={
            dialog.current
              ? () => {
                  setDialog(null);
                  editor.chain().focus().extendMarkRange("link").unsetLink().run();
                }
              : undefined
          }
        />
      ) : null}
      {dialog?.kind === "editImage" ? (
        <ImageDialog
          current={dialog.image}
          onClose={closeDialog}
          onInsert={(image) => {
            setDialog(null);
            const { pos } = dialog;
            editor
              .chain()
              .focus()
              .command(({ tr }) => {
                tr.setNodeMarkup(pos, undefined, image);
                return true;
              })
              .run();
          }}
          onRemove={() => {
            setDialog(null);
            const { pos } = dialog;
            editor
              .chain()
              .focus()
              .command(({ tr }) => {
                const node = tr.doc.nodeAt(pos);
                if (node) tr.delete(pos, pos + node.nodeSize);
                return true;
              })
              .run();
          }}
        />
      ) : null}
      {dialog?.kind === "image" ? (
        <ImageDialog
          onClose={() => {
            setDialog(null);
            editor.commands.focus();
          }}
          onInsert={(image) => {
            setDialog(null);
            // A paragraph after the block takes the cursor: typing goes on below it (never replaces it).
            editor
              .chain()
              .focus()
              .insertContent([{ type: "image", attrs: image }, { type: "paragraph" }])
              .run();
          }}
        />
      ) : null}
      {dialog?.kind === "embed" ? (
        <EmbedDialog
          onClose={() => {
            setDialog(null);
            editor.commands.focus();
          }}
          onInsert={(embed) => {
            setDialog(null);
            editor
              .chain()
              .focus()
              .insertContent([{ type: "embed", attrs: embed }, { type: "paragraph" }])
              .run();
          }}
        />
      ) : null}
    </div>
  );
}

/** The dialog open over the editor: a new image or embed, a link, or an image of the body being edited. */
type Dialog =
  | { kind: "image" }
  | { kind: "embed" }
  | { kind: "link"; current: string; askText: boolean }
  | { kind: "editImage"; pos: number; image: InsertedImage };
