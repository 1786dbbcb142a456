/**
 * The house plan's import rules, checked in `npm run lint` (eslint has no cycle rule installed
 * here; this reads the same files with the TypeScript parser):
 *
 * 1. No import cycles anywhere in app/, cli/, components/, lib/, scripts/, races/: static imports
 *    and re-exports, type-only ones included (a type circle is still two modules that cannot be
 *    read one without the other), and `import("…")` calls (a lazy import hides a circle, it does
 *    not remove it).
 * 2. lib/server is grouped by domain (lib/server/<domain>/). A domain imports the pure core
 *    (lib/graph, lib/review, ...), `db/` (the database layer, open to all), and other domains only
 *    through their entry file `lib/server/<domain>/index.ts` — never another domain's internals.
 *    Tests follow the same rule, except that any test may use another domain's test helpers
 *    (`test-*.ts`, e.g. auth/test-support.ts).
 * 3. `db/` imports no other domain: it is the bottom layer (its tests may use domains, through
 *    their entry files, like any other caller).
 *
 * Exit code 1 with one line per violation; `--graph` prints the domain graph instead.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCANNED = ["app", "cli", "components", "lib", "scripts", "races", "proxy.ts", "instrumentation.ts"];
const SKIPPED = new Set(["node_modules", ".next", "generated"]);
const SERVER = "lib/server/";
/** The bottom layer every domain may reach into. */
const OPEN_DOMAINS = new Set(["db"]);

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
  line: number;
}

function listFiles(entry: string, out: string[]): void {
  const abs = path.join(ROOT, entry);
  if (!fs.existsSync(abs)) return;
  if (fs.statSync(abs).isFile()) {
    if (/\.(ts|tsx)$/.test(entry) && !entry.endsWith(".d.ts")) out.push(entry);
    return;
  }
  for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
    if (SKIPPED.has(e.name)) continue;
    listFiles(path.posix.join(entry, e.name), out);
  }
}

function resolveSpecifier(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const abs = path.join(ROOT, candidate);
    if (fs.existsSync(abs) && fs.statSync(abs).isFile()) return candidate;
  }
  return null;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs code
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

export function readImports(files: string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    for (const statement of source.statements) {
      let spec: string | null = null;
      let typeOnly = false;
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        spec = statement.moduleSpecifier.text;
        typeOnly = isTypeOnlyImport(statement);
      } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        spec = statement.moduleSpecifier.text;
        typeOnly = statement.isTypeOnly;
      }
      if (spec === null) continue;
      const to = resolveSpecifier(file, spec);
      if (!to) continue;
      edges.push({ from: file, to, typeOnly, line: source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1 });
    }
    // `await import("./x")` inside functions: a lazy edge, still a circle if it closes one.
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const arg = node.arguments[0];
        const to = arg && ts.isStringLiteral(arg) ? resolveSpecifier(file, arg.text) : null;
        if (to) edges.push({ from: file, to, typeOnly: false, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

/** Strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
export function findCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const list = next.get(e.from) ?? [];
    list.push(e.to);
    next.set(e.from, list);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

export function domainOf(file: string): string | null {
  if (!file.startsWith(SERVER)) return null;
  const rest = file.slice(SERVER.length);
  const slash = rest.indexOf("/");
  return slash < 0 ? "" : rest.slice(0, slash);
}

const isTestFile = (file: string): boolean => /\.test\.tsx?$/.test(file);

export function findBoundaryViolations(edges: ImportEdge[]): string[] {
  const problems: string[] = [];
  for (const e of edges) {
    const from = domainOf(e.from);
    const to = domainOf(e.to);
    if (from === null || to === null || from === to) continue;
    if (from === "") {
      problems.push(`${e.from}: lib/server has no loose files; put it in a domain folder`);
      continue;
    }
    if (from === "db" && !isTestFile(e.from)) {
      problems.push(`${e.from}:${e.line}: db/ is the bottom layer and imports no domain (imports ${e.to})`);
      continue;
    }
    if (OPEN_DOMAINS.has(to)) continue;
    if (isTestFile(e.from) && /\/test-[^/]+\.ts$/.test(e.to)) continue; // test helpers (test-support.ts, ...) serve every domain's tests
    if (e.to !== `${SERVER}${to}/index.ts`) {
      problems.push(`${e.from}:${e.line}: imports ${e.to}, an internal of ${to}/; import "${path.posix.relative(path.posix.dirname(e.from), `${SERVER}${to}`)}" (its entry file) instead`);
    }
  }
  return problems;
}

function main(): void {
  const files: string[] = [];
  for (const entry of SCANNED) listFiles(entry, files);
  const edges = readImports(files);
  if (process.argv.includes("--graph")) {
    const pairs = new Map<string, number>();
    for (const e of edges) {
      const a = domainOf(e.from);
      const b = domainOf(e.to);
      if (a && b && a !== b) pairs.set(`${a} -> ${b}`, (pairs.get(`${a} -> ${b}`) ?? 0) + 1);
    }
    for (const [pair, n] of [...pairs].sort()) console.log(`${pair}  (${n})`);
    return;
  }
  const problems = findBoundaryViolations(edges);
  for (const cycle of findCycles(edges)) problems.push(`import cycle: ${cycle.join(" → ")}`);
  if (problems.length > 0) {
    for (const p of problems) console.error(p);
    console.error(`\n${problems.length} import rule violation(s); see scripts/check-imports.ts and the README's Architecture.`);
    process.exit(1);
  }
  console.log(`imports: ${files.length} files, ${edges.length} imports, no cycles, domain boundaries hold`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
