/**
 * A platform held to an architecture document that describes it (e.g. the Open Data Hub
 * platform architecture): the document's Markdown tables parsed into facts (CRD ownership,
 * cross-component dependencies, webhooks per component, named webhooks with paths and failure
 * policies), compared row by row with the platform's computed architecture (architecture.ts).
 * Every difference is either declared, with a class and a reason, or reported as undeclared;
 * a declaration that no longer matches a difference is reported as stale.
 */
import type { Architecture } from './architecture';
import { ArchitectureDeclaration, ArchitectureDeclarations, ArchitectureFactWebhook, ArchitectureFacts, ComparedTable, DIFFERENCE_CLASSES, DifferenceClass } from './architecture-facts';

export * from './architecture-facts';

/** One Markdown table: the heading it sits under, its header cells and its rows (cells trimmed). */
export interface MarkdownTable {
  readonly heading: string;
  readonly header: string[];
  readonly rows: string[][];
}

const isTableLine = (l: string) => l.trim().startsWith('|');
const isSeparator = (cells: string[]) => cells.length > 0 && cells.every((c) => /^:?-{3,}:?$/.test(c));

/** The cells of a table line `| a | b |` (escaped pipes kept in their cell). */
function cellsOf(line: string): string[] {
  const t = line.trim().replace(/^\|/, '').replace(/\|\s*$/, '');
  return t.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Headings: ATX (`# x`) lines and lines ending with a pilcrow (documents exported from HTML). */
function headingOf(line: string): string | undefined {
  const t = line.trim();
  const atx = /^#{1,6}\s+(.*?)\s*#*$/.exec(t);
  if (atx) return atx[1].replace(/¶$/, '').trim();
  if (t.endsWith('¶')) return t.slice(0, -1).trim();
  return undefined;
}

/**
 * Every table of a Markdown document: a run of lines starting with `|` whose second line is
 * the separator row. Rows keep their cells as written (a row may have fewer or more cells
 * than the header; the facts below find values by what they look like where documents shift them).
 */
export function parseMarkdownTables(text: string): MarkdownTable[] {
  const lines = text.split(/\r?\n/);
  const tables: MarkdownTable[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const h = headingOf(lines[i]);
    if (h !== undefined) heading = h;
    if (!isTableLine(lines[i]) || i + 1 >= lines.length || !isSeparator(cellsOf(lines[i + 1]))) continue;
    const header = cellsOf(lines[i]);
    const rows: string[][] = [];
    let j = i + 2;
    // A line followed by a separator row starts the next table.
    for (; j < lines.length && isTableLine(lines[j]) && !(j + 1 < lines.length && isSeparator(cellsOf(lines[j + 1]))); j++) rows.push(cellsOf(lines[j]));
    tables.push({ heading, header, rows });
    i = j - 1;
  }
  return tables;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');

function column(t: MarkdownTable, name: string): number {
  return t.header.findIndex((h) => norm(h) === norm(name));
}

function hasColumns(t: MarkdownTable, ...names: string[]): boolean {
  return names.every((n) => column(t, n) >= 0);
}

const cell = (t: MarkdownTable, row: string[], name: string) => {
  const i = column(t, name);
  return i >= 0 ? (row[i] ?? '').trim() : '';
};

/**
 * The facts of the tables of an architecture document, found by their header columns
 * (Owner+CRDs, From+To+Type, Component+Webhooks, Webhook+Type+Owner). Paths are the cell that
 * starts with '/', failure policies the cell that reads Fail or Ignore, wherever a row puts them.
 * Throws when a table the comparison needs is missing.
 */
export function architectureFactsOf(text: string): ArchitectureFacts {
  const tables = parseMarkdownTables(text);
  const find = (what: string, ...cols: string[]) => {
    const t = tables.filter((x) => hasColumns(x, ...cols));
    if (!t.length) throw new Error(`architecture document: no ${what} table (a table with columns ${cols.join(', ')})`);
    return t;
  };
  const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
  const crdOwners = find('CRD ownership', 'Owner', 'CRDs').flatMap((t) => t.rows.map((r) => {
    const crds = list(cell(t, r, 'CRDs'));
    const count = Number(cell(t, r, 'Count'));
    return { owner: cell(t, r, 'Owner'), crds, count: Number.isFinite(count) && cell(t, r, 'Count') ? count : crds.length };
  }));
  const dependencies = find('dependency', 'From', 'To', 'Type').flatMap((t) => t.rows.map((r) => ({ from: cell(t, r, 'From'), to: cell(t, r, 'To'), type: cell(t, r, 'Type') })));
  const webhookCounts = find('webhooks per component', 'Component', 'Webhooks').flatMap((t) => t.rows.map((r) => ({ component: cell(t, r, 'Component'), count: Number(cell(t, r, 'Webhooks')) })));
  const webhooks: ArchitectureFactWebhook[] = find('webhook', 'Webhook', 'Type', 'Owner').flatMap((t) => t.rows.map((r) => {
    const cross = hasColumns(t, 'Target Component');
    const path = r.find((c) => c.startsWith('/'));
    const failurePolicy = r.find((c) => c === 'Fail' || c === 'Ignore');
    const target = cross ? cell(t, r, 'Target Component') : '';
    return {
      table: cross ? 'cross-component' as const : 'external' as const,
      name: cell(t, r, 'Webhook'),
      type: cell(t, r, 'Type'),
      owner: cell(t, r, 'Owner'),
      ...(path ? { path } : {}),
      ...(failurePolicy ? { failurePolicy } : {}),
      ...(target ? { targetComponent: target } : {}),
    };
  }));
  const crdsStated = /defines\s+(\d+)\s+CRDs/i.exec(text);
  const webhooksStated = /total webhooks[^:\n]*:\s*(\d+)/i.exec(text);
  return {
    stated: { ...(crdsStated ? { crds: Number(crdsStated[1]) } : {}), ...(webhooksStated ? { webhooks: Number(webhooksStated[1]) } : {}) },
    crdOwners,
    dependencies,
    webhookCounts,
    webhooks,
  };
}

export type RowStatus = 'match' | DifferenceClass | 'undeclared';

export interface ComparisonRow {
  readonly table: ComparedTable;
  readonly key: string;
  /** The row as the document has it. */
  readonly architecture: string;
  /** What the platform has for it. */
  readonly ours: string;
  readonly status: RowStatus;
  readonly reason?: string;
  readonly setting?: string;
}

export interface ArchitectureComparison {
  readonly rows: ComparisonRow[];
  readonly undeclared: ComparisonRow[];
  /** Declarations that match no difference (the row matches, or no such row). */
  readonly stale: ArchitectureDeclaration[];
  readonly totals: {
    readonly architecture: { readonly crds: number; readonly crdsStated?: number; readonly webhooks: number; readonly webhooksStated?: number; readonly dependencies: number };
    readonly ours: { readonly crds: number; readonly webhooks: number; readonly dependencies: number; readonly webhooksByComponent: Record<string, number> };
  };
}

/** The row key of a document row (what declarations name). */
export const comparisonKey = {
  crd: (owner: string, kind: string) => `${owner}/${kind}`,
  dependency: (d: { from: string; to: string; type: string }) => `${d.from} -> ${d.to} ${d.type}`,
  webhook: (w: Pick<ArchitectureFactWebhook, 'owner' | 'type' | 'name' | 'path'>) => `${w.owner} ${w.type} ${w.name}${w.path ? ` ${w.path}` : ''}`,
  webhookCount: (component: string) => component,
};

/**
 * Compares a platform's architecture with the document's facts, row by row. Each document
 * row matches (the platform has it, under the mapped component names) or is a difference,
 * classified by the declaration with its key, else undeclared.
 */
export function compareArchitecture(a: Architecture, facts: ArchitectureFacts, decl: ArchitectureDeclarations): ArchitectureComparison {
  const mapped = (c: string) => decl.componentNames.find((m) => m.architecture === c)?.ours ?? [c];
  const declared = new Map(decl.differences.map((d) => [`${d.table}|${d.key}`, d]));
  const used = new Set<string>();
  const rows: ComparisonRow[] = [];
  const row = (table: ComparedTable, key: string, architecture: string, ours: string, matches: boolean) => {
    const d = declared.get(`${table}|${key}`);
    if (matches) {
      rows.push({ table, key, architecture, ours, status: 'match' });
      return;
    }
    if (d) used.add(`${table}|${key}`);
    rows.push({ table, key, architecture, ours, status: d ? d.class : 'undeclared', ...(d ? { reason: d.reason } : {}), ...(d?.setting ? { setting: d.setting } : {}) });
  };

  // CRD ownership: each kind served, owned by a component the owner maps to.
  for (const o of facts.crdOwners) {
    for (const kind of o.crds) {
      const ourCrds = a.crds.filter((c) => c.kind === kind);
      const ours = ourCrds.length ? ourCrds.map((c) => `${c.owner} (${c.name})`).join(', ') : 'not served';
      row('crd', comparisonKey.crd(o.owner, kind), `${o.owner}: ${kind}`, ours, ourCrds.some((c) => mapped(o.owner).includes(c.owner)));
    }
  }

  // Dependencies: watches-crd:<Kind> needs a dependency on that kind; other types any dependency between the two.
  const crdKind = new Map(a.crds.map((c) => [c.name, c.kind]));
  const kindOf = (what: string) => crdKind.get(what) ?? what.split('/').pop()!;
  for (const d of facts.dependencies) {
    const kind = /^watches-crd:(.+)$/.exec(d.type)?.[1];
    const between = a.dependencies.filter((x) => mapped(d.from).includes(x.from) && mapped(d.to).includes(x.to));
    const hits = kind ? between.filter((x) => kindOf(x.what) === kind) : between;
    const ours = hits.length ? [...new Set(hits.map((x) => `${x.from} -> ${x.to} ${x.kind} ${x.what}`))].join('; ') : 'none';
    row('dependency', comparisonKey.dependency(d), `${d.from} -> ${d.to} (${d.type})`, ours, hits.length > 0);
  }

  // Named webhooks: the same name and path in a mapped component, with the same failure policy when the document gives one.
  for (const w of facts.webhooks) {
    const same = a.webhooks.filter((x) => x.name === w.name && (w.path === undefined || x.path === w.path) && mapped(w.owner).includes(x.component));
    const hits = same.filter((x) => w.failurePolicy === undefined || x.failurePolicy === w.failurePolicy);
    const shown = (hits.length ? hits : same).map((x) => `${x.component} ${x.type} ${x.name} ${x.path ?? ''} ${x.failurePolicy}`.replace(/ +/g, ' '));
    const arch = `${w.owner} ${w.type} ${w.name} ${w.path ?? ''}${w.failurePolicy ? ` ${w.failurePolicy}` : ''}${w.targetComponent ? ` (service of ${w.targetComponent})` : ''}`.replace(/ +/g, ' ');
    row('webhook', comparisonKey.webhook(w), arch, shown.length ? [...new Set(shown)].join('; ') : 'not emitted', hits.length > 0);
  }

  // Webhooks per component: the count over the mapped components.
  const byComponent: Record<string, number> = {};
  for (const w of a.webhooks) byComponent[w.component] = (byComponent[w.component] ?? 0) + 1;
  for (const c of facts.webhookCounts) {
    const n = mapped(c.component).reduce((s, x) => s + (byComponent[x] ?? 0), 0);
    row('webhook-count', comparisonKey.webhookCount(c.component), `${c.component}: ${c.count}`, `${mapped(c.component).join(' + ')}: ${n}`, n === c.count);
  }

  const stale = decl.differences.filter((d) => !used.has(`${d.table}|${d.key}`));
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  return {
    rows,
    undeclared: rows.filter((r) => r.status === 'undeclared'),
    stale,
    totals: {
      architecture: {
        crds: sum(facts.crdOwners.map((o) => o.crds.length)),
        ...(facts.stated.crds !== undefined ? { crdsStated: facts.stated.crds } : {}),
        webhooks: sum(facts.webhookCounts.map((c) => c.count)),
        ...(facts.stated.webhooks !== undefined ? { webhooksStated: facts.stated.webhooks } : {}),
        dependencies: facts.dependencies.length,
      },
      ours: { crds: a.crds.length, webhooks: a.webhooks.length, dependencies: a.dependencies.length, webhooksByComponent: byComponent },
    },
  };
}

const TABLE_TITLES: Record<ComparedTable, string> = {
  'crd': 'CRD ownership',
  'dependency': 'Cross-component dependencies',
  'webhook': 'Named webhooks (cross-component and external)',
  'webhook-count': 'Webhooks per component',
};

/** The comparison as Markdown: totals, then each table row by row (architecture | ours | status | why). */
export function architectureComparisonMarkdown(c: ArchitectureComparison, level = 2): string {
  const h = '#'.repeat(level);
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const t = c.totals;
  const out: string[] = [
    `${h} Compared with the architecture`,
    '',
    `CRDs: ours ${t.ours.crds}, architecture ${t.architecture.crds} in its table${t.architecture.crdsStated !== undefined ? ` (${t.architecture.crdsStated} stated)` : ''}. ` +
      `Webhooks: ours ${t.ours.webhooks}, architecture ${t.architecture.webhooks}${t.architecture.webhooksStated !== undefined ? ` (${t.architecture.webhooksStated} stated)` : ''}. ` +
      `Dependencies: ours ${t.ours.dependencies}, architecture ${t.architecture.dependencies}.`,
    '',
    `Differences: ${c.rows.filter((r) => r.status !== 'match').length} (${DIFFERENCE_CLASSES.map((k) => `${k} ${c.rows.filter((r) => r.status === k).length}`).join(', ')}), undeclared ${c.undeclared.length}, stale declarations ${c.stale.length}.`,
  ];
  for (const table of Object.keys(TABLE_TITLES) as ComparedTable[]) {
    out.push('', `${h}# ${TABLE_TITLES[table]}`, '', '| architecture | ours | status | why |', '| --- | --- | --- | --- |');
    for (const r of c.rows.filter((x) => x.table === table)) {
      const why = r.reason ? `${r.reason}${r.setting ? ` (enable: ${r.setting})` : ''}` : '';
      out.push(`| ${esc(r.architecture)} | ${esc(r.ours)} | ${r.status} | ${esc(why)} |`);
    }
  }
  if (c.stale.length) {
    out.push('', `${h}# Stale declarations`, '');
    for (const d of c.stale) out.push(`- ${d.table} ${d.key}: declared ${d.class}, but the row matches or is gone`);
  }
  return out.join('\n') + '\n';
}
