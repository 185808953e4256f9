// Writes the API report of every entry point of the workspace's packages:
// packages/<pkg>/api/<entry>.api.md, every name the entry exports with its
// kind and its declared signature, sorted by name. The reports are checked
// in, so a change to a public surface shows in review; a test
// (packages/cli/test/api-report.test.ts) fails when one differs from what the
// sources give. One TypeScript program holds every entry (a few seconds).
//
//   node scripts/api-report.mjs           rewrites the reports
//   node scripts/api-report.mjs --check   exits 1, naming the stale ones
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** How to regenerate the reports, for messages. */
export const REGENERATE = 'node scripts/api-report.mjs';

/**
 * Every entry point of the workspace's packages: the `exports` of each
 * packages/<pkg>/package.json that point at TypeScript sources (types in
 * api-report.d.mts).
 */
export function entryPoints(root = ROOT) {
  const entries = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const manifestFile = join(root, 'packages', dir, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'string' ? target : target?.types;
      if (typeof source !== 'string' || !source.endsWith('.ts')) continue;
      const entry = subpath === '.' ? 'index' : subpath.slice(2);
      entries.push({
        name: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
        subpath,
        source: join('packages', dir, source),
        report: join('packages', dir, 'api', `${entry}.api.md`),
      });
    }
  }
  return entries;
}

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** The report's text of each entry point, by report path (relative to the root). */
export function apiReports(root = ROOT) {
  const entries = entryPoints(root);
  const config = ts.parseJsonConfigFileContent(
    { extends: join(root, 'tsconfig.base.json'), compilerOptions: { noEmit: true }, files: entries.map((e) => join(root, e.source)) },
    ts.sys,
    root,
  );
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter({ removeComments: true });
  const reports = new Map();
  for (const entry of entries) {
    const file = program.getSourceFile(join(root, entry.source));
    if (!file) throw new Error(`${entry.source} is not in the program`);
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(file));
    const items = exports.map((symbol) => describeExport(symbol, { checker, printer, root })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    reports.set(entry.report, formatReport(entry, items));
  }
  return reports;
}

/** The names a report lists, read back from its text. */
export function reportedNames(text) {
  return [...text.matchAll(/^### `([^`]+)`/gm)].map((m) => m[1]);
}

function formatReport(entry, items) {
  const counts = new Map();
  for (const item of items) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  const summary = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, n]) => `${n} ${kind}`).join(', ');
  const lines = [
    `# API report: ${entry.name}`,
    '',
    `<!-- Generated from ${entry.source} by \`${REGENERATE}\`; do not edit. -->`,
    '',
    `${items.length} exports (${summary}).`,
    '',
  ];
  for (const item of items) lines.push(`### \`${item.name}\``, '', `${item.kind}${item.typeOnly ? ' (type only)' : ''}`, '', '```ts', item.text, '```', '');
  return lines.join('\n');
}

/** Whether a value (a class, a function, a constant) is exported as a type alone (`export type { X }`). */
function isTypeOnlyExport(symbol, target) {
  const declaration = symbol.declarations?.[0];
  const exportedAsType = !!declaration && ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
  return exportedAsType && (target.flags & ts.SymbolFlags.Value) !== 0;
}

function describeExport(symbol, context) {
  const { checker } = context;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declarations = declarationsToPrint(target.declarations ?? []);
  const kinds = [...new Set(declarations.map(kindOf))];
  const text = declarations.map((declaration) => printDeclaration(declaration, context)).join('\n');
  return { name: symbol.name, kind: kinds.join(', ') || 'unknown', typeOnly: isTypeOnlyExport(symbol, target), text: cleanPaths(text, context.root) };
}

/** A function's overloads without its implementation's signature. */
function declarationsToPrint(declarations) {
  const overloads = declarations.filter((d) => (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d)) && !d.body);
  return declarations.filter((d) => !(overloads.length > 0 && (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d)) && d.body));
}

function kindOf(declaration) {
  if (ts.isFunctionDeclaration(declaration)) return 'function';
  if (ts.isClassDeclaration(declaration)) return 'class';
  if (ts.isInterfaceDeclaration(declaration)) return 'interface';
  if (ts.isTypeAliasDeclaration(declaration)) return 'type';
  if (ts.isEnumDeclaration(declaration)) return 'enum';
  if (ts.isModuleDeclaration(declaration)) return 'namespace';
  if (ts.isVariableDeclaration(declaration)) return declaration.parent.flags & ts.NodeFlags.Const ? 'const' : 'let';
  return ts.SyntaxKind[declaration.kind];
}

/** Absolute paths in types the checker wrote (`import("/…/x")`) as paths from the root, or a package's name. */
function cleanPaths(text, root) {
  return text
    .replace(/import\("([^"]+)"\)/g, (_, path) => {
      const inModules = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(path);
      if (inModules) return `import("${inModules[1]}${(inModules[2] ?? '').replace(/\/(index)?(\.d)?(\.[cm]?ts)?$/, '')}")`;
      return `import("${relative(root, path)}")`;
    });
}

function print(node, context) {
  return context.printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());
}

function typeText(type, node, context) {
  return context.checker.typeToString(type, node, TYPE_FLAGS);
}

function printDeclaration(declaration, context) {
  if (ts.isFunctionDeclaration(declaration)) return `function ${signatureText(declaration, declaration.name?.text ?? 'default', context)};`;
  if (ts.isVariableDeclaration(declaration)) {
    const keyword = declaration.parent.flags & ts.NodeFlags.Const ? 'const' : 'let';
    const type = declaration.type ? print(declaration.type, context) : typeText(context.checker.getTypeAtLocation(declaration.name), declaration, context);
    return `${keyword} ${declaration.name.getText()}: ${type};`;
  }
  if (ts.isClassDeclaration(declaration)) return printClass(declaration, context);
  return withoutExportModifiers(print(declaration, context));
}

function withoutExportModifiers(text) {
  return text.replace(/^(export |declare |default )+/, '');
}

function typeParameters(node, context) {
  return node.typeParameters ? `<${node.typeParameters.map((p) => print(p, context)).join(', ')}>` : '';
}

function parameterText(parameter, context) {
  const modifiers = (ts.getModifiers(parameter) ?? []).filter((m) => m.kind !== ts.SyntaxKind.PrivateKeyword).map((m) => `${ts.tokenToString(m.kind)} `).join('');
  const optional = parameter.questionToken || parameter.initializer ? '?' : '';
  const type = parameter.type ? print(parameter.type, context) : typeText(context.checker.getTypeAtLocation(parameter), parameter, context);
  return `${modifiers}${parameter.dotDotDotToken ? '...' : ''}${print(parameter.name, context)}${optional}: ${type}`;
}

/** `name<T>(a: A, b?: B): R`, with the return type the checker infers when none is written. */
function signatureText(node, name, context) {
  const parameters = node.parameters.map((p) => parameterText(p, context)).join(', ');
  let returns = '';
  if (!ts.isConstructorDeclaration(node) && !ts.isSetAccessorDeclaration(node)) {
    if (node.type) returns = `: ${print(node.type, context)}`;
    else {
      const signature = context.checker.getSignatureFromDeclaration(node);
      returns = signature ? `: ${typeText(context.checker.getReturnTypeOfSignature(signature), node, context)}` : '';
    }
  }
  return `${name}${typeParameters(node, context)}(${parameters})${returns}`;
}

function isHidden(member) {
  if (member.name && ts.isPrivateIdentifier(member.name)) return true;
  if (ts.isClassStaticBlockDeclaration(member) || ts.isSemicolonClassElement(member)) return true;
  return (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
}

const MEMBER_MODIFIERS = new Set([ts.SyntaxKind.StaticKeyword, ts.SyntaxKind.ReadonlyKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.AbstractKeyword, ts.SyntaxKind.AccessorKeyword]);

function memberText(member, context) {
  const modifiers = (ts.getModifiers(member) ?? []).filter((m) => MEMBER_MODIFIERS.has(m.kind)).map((m) => `${ts.tokenToString(m.kind)} `).join('');
  if (ts.isConstructorDeclaration(member)) return `${signatureText(member, 'constructor', context)};`;
  const name = print(member.name, context);
  if (ts.isMethodDeclaration(member)) return `${modifiers}${signatureText(member, `${name}${member.questionToken ? '?' : ''}`, context)};`;
  if (ts.isGetAccessorDeclaration(member)) return `${modifiers}${signatureText(member, `get ${name}`, context)};`;
  if (ts.isSetAccessorDeclaration(member)) return `${modifiers}${signatureText(member, `set ${name}`, context)};`;
  if (ts.isPropertyDeclaration(member)) {
    const type = member.type ? print(member.type, context) : typeText(context.checker.getTypeAtLocation(member), member, context);
    return `${modifiers}${name}${member.questionToken ? '?' : ''}: ${type};`;
  }
  return print(member, context);
}

function printClass(declaration, context) {
  const abstract = (ts.getModifiers(declaration) ?? []).some((m) => m.kind === ts.SyntaxKind.AbstractKeyword) ? 'abstract ' : '';
  const heritage = (declaration.heritageClauses ?? []).map((clause) => ` ${print(clause, context).trim()}`).join('');
  const members = declarationsToPrint(declaration.members.filter((m) => !isHidden(m)));
  const body = members.map((member) => `    ${memberText(member, context).replace(/\n/g, '\n    ')}`);
  return [`${abstract}class ${declaration.name?.text ?? 'default'}${typeParameters(declaration, context)}${heritage} {`, ...body, '}'].join('\n');
}

/** The reports that differ from the checked-in files (missing ones included), by path. */
export function staleReports(root = ROOT, reports = apiReports(root)) {
  return [...reports].filter(([path, text]) => !existsSync(join(root, path)) || readFileSync(join(root, path), 'utf8') !== text).map(([path]) => path);
}

/** Report files on disk that no entry point makes any more. */
export function orphanReports(root = ROOT, reports = apiReports(root)) {
  const orphans = [];
  for (const dir of readdirSync(join(root, 'packages'))) {
    const api = join(root, 'packages', dir, 'api');
    if (!existsSync(api)) continue;
    for (const name of readdirSync(api)) {
      const path = join('packages', dir, 'api', name);
      if (name.endsWith('.api.md') && !reports.has(path)) orphans.push(path);
    }
  }
  return orphans;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const reports = apiReports();
  if (process.argv.includes('--check')) {
    const stale = [...staleReports(ROOT, reports), ...orphanReports(ROOT, reports)];
    if (stale.length > 0) {
      console.error(`API reports out of date: ${stale.join(', ')}\nRun ${REGENERATE} and review the change.`);
      process.exit(1);
    }
    console.log(`${reports.size} API reports up to date`);
  } else {
    for (const [path, text] of reports) {
      mkdirSync(dirname(join(ROOT, path)), { recursive: true });
      writeFileSync(join(ROOT, path), text);
    }
    console.log(`wrote ${reports.size} API reports in ${Math.round(performance.now() - started)} ms`);
  }
}
