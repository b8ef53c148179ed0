import { parse } from "@babel/parser";

type Literal = { type: "StringLiteral"; value: string } | { type: "TemplateLiteral"; quasis: Array<{ value: { raw: string } }> };

/**
 * The module specifiers of a source: imports, re-exports, dynamic imports and `import("…")` types (a template
 * literal's text up to its first substitution). What the tests that hold import rules read
 * (tests/unit/subpath-imports.test.ts, tests/unit/lib-imports.test.ts).
 */
export function specifiersOf(source: string, tsx: boolean): string[] {
  const ast = parse(source, { sourceType: "module", plugins: tsx ? ["typescript", "jsx"] : ["typescript"] });
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const { type } = node as { type?: string };
    const literal = (value: unknown) => {
      const text = value as Literal | null | undefined;
      if (text?.type === "StringLiteral") found.push(text.value);
      else if (text?.type === "TemplateLiteral") found.push(text.quasis[0]!.value.raw);
    };
    if (type === "ImportDeclaration" || type === "ExportNamedDeclaration" || type === "ExportAllDeclaration")
      literal((node as { source?: unknown }).source);
    else if (type === "TSImportType") literal((node as { argument: unknown }).argument);
    else if (type === "CallExpression" && (node as { callee: { type: string } }).callee.type === "Import")
      literal((node as { arguments: unknown[] }).arguments[0]);
    else if (type === "ImportExpression") literal((node as { source: unknown }).source);
    for (const [key, child] of Object.entries(node)) if (key !== "loc") visit(child);
  };
  visit(ast.program);
  return found;
}
