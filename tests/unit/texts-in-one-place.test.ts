import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "@babel/parser";
import { describe, expect, it } from "vitest";

/**
 * Every text a user of the site can see lives in app/i18n/pt-BR.ts (the newsroom's own in app/i18n/newsroom.ts and
 * app/i18n/pt-BR-blocks.ts, which reader pages do not load), and so do the texts of the operator's commands
 * (`terminal`). This scans the source of app/, server/ and scripts/ for string literals, template pieces and JSX text
 * with Portuguese letters (accents, cedilla) anywhere else. The few files allowed to hold such text are listed with
 * the reason.
 */
const ROOT = join(import.meta.dirname, "..", "..");
const ALLOWED: Record<string, string> = {
  "app/i18n/pt-BR.ts": "the one place for the site's texts",
  "app/i18n/pt-BR-blocks.ts": "the newsroom's texts of the body's image and embed blocks, kept out of what reader pages load",
  "app/i18n/newsroom.ts": "the newsroom's texts, apart so reader pages do not download them",
  "app/.server/seed/demo-content.ts": "the demo's news and sponsors (content, not interface text)",
  "app/.server/seed/bulk-news-words.ts": "words the bulk seed builds fake news from (content)",
  "app/.server/seed/bulk-news.server.ts": "category names of the bulk seed (content)",
  "scripts/test.ts": "development only: `npm test`, run by the people working on the code and by CI, not by an operator",
  "scripts/ensure-chromium.ts": "development only: installs the browser the e2e tests drive",
  "scripts/security.ts": "development only: the scanner run (`npm run security`); its route labels and demo form values are test input",
  "scripts/make-demo-media.ts": "development only: redraws the committed demo pictures (`npm run demo:media`)",
};
const PORTUGUESE_LETTER = /[áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ]/;
/** Common Portuguese words written without accents; looked for only in texts of two words or more (ids like "x-erro" are not texts). */
const PORTUGUESE_WORD =
  /\b(uma|sem|foi|fora|pelo|pela|seu|sua|ainda|tente|novamente|apenas|nada|chave|arquivo|envie|dados|corpo|erro|falha|falhou|demais|interrompid[ao]s?|recusad[ao]s?|encontrad[ao]s?|agora|senha|conta|patrocinador\w*|nenhum\w*|muito|pode|deve|precisa|para)\b/i;
const looksPortuguese = (text: string) => PORTUGUESE_LETTER.test(text) || (/\S\s+\S/.test(text) && PORTUGUESE_WORD.test(text));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The Portuguese-looking texts of one file, with their line numbers (comments are not looked at). */
function portugueseLiterals(fileName: string, source: string): Array<{ line: number; text: string }> {
  const ast = parse(source, { sourceType: "module", plugins: fileName.endsWith(".tsx") ? ["typescript", "jsx"] : ["typescript"] });
  const found: Array<{ line: number; text: string }> = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const { type, loc } = node as { type?: unknown; loc?: { start: { line: number } } };
    let text: string | null = null;
    if (type === "StringLiteral" || type === "JSXText") text = (node as { value: string }).value;
    else if (type === "TemplateElement") text = (node as { value: { raw: string } }).value.raw;
    if (text !== null && loc && looksPortuguese(text)) found.push({ line: loc.start.line, text: text.trim().slice(0, 80) });
    for (const [key, child] of Object.entries(node)) {
      if (key !== "loc" && key !== "leadingComments" && key !== "trailingComments" && key !== "innerComments") visit(child);
    }
  };
  visit(ast.program);
  return found;
}

describe("user texts in one place", () => {
  it("finds Portuguese in strings, templates and JSX text, not in comments", () => {
    const source = [
      "// Notícia não encontrada",
      "/** Ação */",
      'const a = "Falha ao buscar notícia";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal, on purpose
      "const b = `Olá ${name}, você`;",
      "const c = <p>Página</p>;",
      'const d = "plain English";',
      'const e = "Dados recusados pelo servidor";',
      'const f = "mensagem-erro";',
    ].join("\n");
    expect(portugueseLiterals("sample.tsx", source).map((hit) => hit.line)).toEqual([3, 4, 4, 5, 7]);
  });

  it("app/, server/ and scripts/ hold no Portuguese text outside app/i18n/ and the allowed files", () => {
    const scripts = sourceFiles(join(ROOT, "scripts"));
    expect(scripts.length).toBeGreaterThan(10);
    const files = [...sourceFiles(join(ROOT, "app")), ...sourceFiles(join(ROOT, "server")), ...scripts];
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((path) => {
      const name = relative(ROOT, path).split("\\").join("/");
      if (name in ALLOWED) return [];
      return portugueseLiterals(name, readFileSync(path, "utf8")).map((hit) => `${name}:${hit.line}: ${hit.text}`);
    });
    expect(offenders).toEqual([]);
  });

  it("every allowed file exists and still needs its exception", () => {
    for (const name of Object.keys(ALLOWED)) {
      expect(portugueseLiterals(name, readFileSync(join(ROOT, name), "utf8")).length, name).toBeGreaterThan(0);
    }
  });
});
