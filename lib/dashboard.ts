/**
 * Links a component contributes to the Kubeflow central dashboard, as data: the dashboard
 * renders the links of the components present in its platform (an absent component has
 * no link). The shapes follow the dashboard's `links` configuration.
 */

/** One page in the dashboard's menu. */
export interface DashboardMenuItem {
  /** Path on the dashboard's host (e.g. /jupyter/) or a full URL for external links. */
  readonly link: string;
  readonly text: string;
  /** Icon name as the dashboard knows it (e.g. book, kubeflow:katib). */
  readonly icon?: string;
}

/** A menu section with several pages (e.g. Pipelines: Pipelines, Experiments, Runs...). */
export interface DashboardMenuSection {
  readonly text: string;
  readonly icon?: string;
  readonly items: DashboardMenuItem[];
}

/** A card on the home page: a quick link or a documentation item. */
export interface DashboardCard {
  readonly link: string;
  readonly text: string;
  readonly desc: string;
}

export interface DashboardLinks {
  /** Entries of the side menu. */
  readonly menu?: Array<DashboardMenuItem | DashboardMenuSection>;
  /** Menu entries that open outside the dashboard. */
  readonly external?: DashboardMenuItem[];
  /** Home page shortcuts. */
  readonly quick?: DashboardCard[];
  /** Home page documentation cards. */
  readonly documentation?: DashboardCard[];
}

export function isMenuSection(e: DashboardMenuItem | DashboardMenuSection): e is DashboardMenuSection {
  return (e as DashboardMenuSection).items !== undefined;
}

/** Checks one component's links; returns problems (empty when fine). */
export function dashboardLinkProblems(links: DashboardLinks): string[] {
  const out: string[] = [];
  const checkLink = (where: string, link: string, external: boolean) => {
    if (external ? !/^https?:\/\/\S+$/.test(link) : !(link.startsWith('/') || /^https?:\/\/\S+$/.test(link))) {
      out.push(`${where} link '${link}' must be ${external ? 'an http(s) URL' : 'a path starting with / or an http(s) URL'}`);
    }
  };
  const checkText = (where: string, text: string) => {
    if (!text.trim()) out.push(`${where} has an empty text`);
  };
  for (const e of links.menu ?? []) {
    checkText('menu entry', e.text);
    if (isMenuSection(e)) {
      if (!e.items.length) out.push(`menu section '${e.text}' has no items`);
      for (const i of e.items) { checkText(`item of menu section '${e.text}'`, i.text); checkLink(`menu section '${e.text}' item`, i.link, false); }
    } else {
      checkLink(`menu entry '${e.text}'`, e.link, false);
    }
  }
  for (const e of links.external ?? []) { checkText('external link', e.text); checkLink(`external link '${e.text}'`, e.link, true); }
  for (const e of links.quick ?? []) { checkText('quick link', e.text); checkLink(`quick link '${e.text}'`, e.link, false); }
  for (const e of links.documentation ?? []) { checkText('documentation item', e.text); checkLink(`documentation item '${e.text}'`, e.link, false); }
  return out;
}

/**
 * The dashboard's `links` document for a list of contributions, in the given order:
 * menuLinks, externalLinks, quickLinks, documentationItems.
 */
export function renderDashboardLinks(contributions: DashboardLinks[]): Record<string, unknown> {
  const item = (i: DashboardMenuItem) => dropUndefined({ type: 'item', link: i.link, text: i.text, icon: i.icon });
  return {
    menuLinks: contributions.flatMap((c) => (c.menu ?? []).map((e) => (isMenuSection(e)
      ? dropUndefined({ type: 'section', text: e.text, icon: e.icon, items: e.items.map(item) })
      : item(e)))),
    externalLinks: contributions.flatMap((c) => (c.external ?? []).map(item)),
    quickLinks: contributions.flatMap((c) => (c.quick ?? []).map((q) => ({ desc: q.desc, link: q.link, text: q.text }))),
    documentationItems: contributions.flatMap((c) => (c.documentation ?? []).map((q) => ({ desc: q.desc, link: q.link, text: q.text }))),
  };
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
