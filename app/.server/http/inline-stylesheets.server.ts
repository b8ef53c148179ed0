import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";

/**
 * The build's stylesheets written into the page instead of fetched (decision record 014). On a phone's first visit
 * each `<link rel="stylesheet">` in the head holds the first paint back by a round trip, and the three a reader page
 * has (the site's, the readers' shared one, the page's) share the connection with the lead image: written inline,
 * the page paints with its HTML.
 *
 * The links stay, for hydration: React matches the head's `<link>` elements by rel and href, and a missing one would
 * make it render the whole document again in the browser. Each becomes `<style data-href>` with the file's text
 * followed by the same link with `disabled` (a disabled stylesheet is not fetched, and React does not change
 * attributes while hydrating). Pages the browser navigates to afterwards get their stylesheets as links, as before.
 */
export interface StylesheetInliner {
  /** The head with each known stylesheet link inlined (unknown ones, and anything else, left as they are). */
  rewriteHead(head: string): string;
  /** How many stylesheets were read (0: none to inline, e.g. in development). */
  readonly count: number;
}

/** A link React renders for a route's stylesheet: `<link rel="stylesheet" href="/assets/…css[#]"/>`, a nonce maybe. */
const STYLESHEET_LINK = /<link\b([^>]*?)\brel="stylesheet"([^>]*?)\bhref="([^"]+)"([^>]*?)\/?>/g;

/**
 * Reads every stylesheet of the client build (`<clientDir>/assets/*.css`, a few tens of kB) once. `publicPath` is
 * where the browser finds those files ("/assets/…" by default).
 */
export function createStylesheetInliner(clientDir: string, publicPath = "/assets/"): StylesheetInliner {
  const texts = new Map<string, string>();
  const assets = path.join(clientDir, "assets");
  const files = fs.existsSync(assets) ? fs.readdirSync(assets).filter((file) => file.endsWith(".css")) : [];
  for (const file of files) {
    // A stylesheet never closes the element it is written into (a CSS string holding "</style" would).
    const text = fs.readFileSync(path.join(assets, file), "utf8");
    if (!/<\/style/i.test(text)) texts.set(publicPath + file, text);
  }
  return {
    count: texts.size,
    rewriteHead(head) {
      if (!texts.size) return head;
      return head.replace(STYLESHEET_LINK, (link: string, _before: string, _between: string, href: string) => {
        // React Router adds "#" to a stylesheet another route's links also name, so both render.
        const text = texts.get(href.replace(/#$/, ""));
        if (text === undefined) return link;
        return `<style data-href="${href}">${text}</style>${link.replace(/\/?>$/, ' disabled=""/>')}`;
      });
    },
  };
}

/**
 * A stream that holds a document back until its `</head>` (React writes the head in 2 kB pieces, a link may be cut in
 * two), writes the head as `rewrite` changes it, then passes everything after it on untouched. The pieces written in
 * one turn of the event loop go on as one (React writes a page rendered at once in ~20 pieces of 6 kB, and each one
 * made its own trip through every stream after this and through the compressor); a part streamed later still goes
 * out as soon as its turn ends. With `rewrite` null (no stylesheets to write in), only the joining.
 */
export function rewriteHeadStream(rewrite: ((head: string) => string) | null, onFinal?: () => void): Transform {
  let held: Buffer | null = rewrite ? Buffer.alloc(0) : null;
  let pending: Buffer[] = [];
  let scheduled = false;
  const release = () => {
    scheduled = false;
    if (!pending.length) return;
    stream.push(pending.length === 1 ? pending[0] : Buffer.concat(pending));
    pending = [];
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (held === null) pending.push(chunk);
      else {
        const buffer = held.length ? Buffer.concat([held, chunk]) : chunk;
        const end = buffer.indexOf("</head>");
        if (end < 0) {
          held = buffer;
          return callback();
        }
        held = null;
        pending.push(Buffer.from(rewrite!(buffer.subarray(0, end).toString("utf8"))), buffer.subarray(end));
      }
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(release);
      }
      callback();
    },
    flush(callback) {
      onFinal?.();
      // A document without a head (an error page of another shape) goes out as it came.
      if (held?.length) pending.push(held);
      held = null;
      release();
      callback();
    },
  });
  return stream;
}
