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

/** The paths on the dashboard's host that a contribution links to (menu items, quick links; not external URLs). */
export function internalLinks(links: DashboardLinks): string[] {
  const out: string[] = [];
  for (const e of links.menu ?? []) for (const link of isMenuSection(e) ? e.items.map((i) => i.link) : [e.link]) out.push(link);
  for (const q of links.quick ?? []) out.push(q.link);
  for (const d of links.documentation ?? []) out.push(d.link);
  return [...new Set(out.filter((l) => l.startsWith('/')))];
}

/** The parts of a Kubernetes object the route check reads. */
export interface RoutableObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly spec?: any;
}

/** Where a dashboard link leads: the VirtualService route that serves its path and the Service behind it. */
export interface DashboardLinkRoute {
  readonly link: string;
  /** namespace/name of the VirtualService whose route serves the link's path (the most specific match). */
  readonly virtualService?: string;
  /** namespace/name of the Service that route sends to. */
  readonly service?: string;
  /** Why the link leads nowhere (undefined when it resolves). */
  readonly problem?: string;
}

interface UriMatch { readonly prefix?: string; readonly exact?: string; readonly regex?: string }

/** How specifically a VirtualService uri match serves `path` (-1: it does not). */
function matchLength(m: UriMatch, path: string): number {
  if (m.exact !== undefined) return m.exact === path ? m.exact.length + 1 : -1;
  if (m.prefix !== undefined) return path.startsWith(m.prefix) ? m.prefix.length : -1;
  if (m.regex !== undefined) return new RegExp(`^(?:${m.regex})$`).test(path) ? 1 : -1;
  return -1;
}

/**
 * Resolves each link path to the VirtualService route that serves it on `gateway` (the most
 * specific uri match, as the app owning the path sees it; a catch-all prefix `/` is the
 * dashboard's own and serves no app) and the Service it routes to, which must be in
 * `objects` with the route's port. The hash and query of a link are the page's own.
 */
export function resolveDashboardLinks(objects: readonly RoutableObject[], links: readonly string[], gateway: string): DashboardLinkRoute[] {
  const services = new Map<string, RoutableObject>();
  for (const o of objects) if (o.apiVersion === 'v1' && o.kind === 'Service') services.set(`${o.metadata?.namespace}/${o.metadata?.name}`, o);
  const routes = objects.filter((o) => o.kind === 'VirtualService' && (o.apiVersion ?? '').startsWith('networking.istio.io/')
    && (o.spec?.gateways ?? []).some((g: string) => g === gateway || `${o.metadata?.namespace}/${g}` === gateway));
  return links.map((link) => {
    const path = link.replace(/[#?].*$/, '');
    let best: { vs: RoutableObject; route: any; length: number } | undefined;
    for (const vs of routes) {
      for (const route of vs.spec?.http ?? []) {
        for (const m of (route.match ?? []) as Array<{ uri?: UriMatch }>) {
          if (!m.uri || m.uri.prefix === '/') continue;
          const length = matchLength(m.uri, path);
          if (length >= 0 && (!best || length > best.length)) best = { vs, route, length };
        }
      }
    }
    if (!best) return { link, problem: `no VirtualService on gateway ${gateway} routes ${path} (only the dashboard's catch-all would answer it)` };
    const vsName = `${best.vs.metadata?.namespace}/${best.vs.metadata?.name}`;
    const dest = best.route.route?.[0]?.destination;
    if (!dest?.host) return { link, virtualService: vsName, problem: `VirtualService ${vsName} routes ${path} to no destination` };
    // host: name, name.ns, name.ns.svc, name.ns.svc.<domain>
    const [name, namespace = best.vs.metadata?.namespace] = String(dest.host).split('.');
    const svcId = `${namespace}/${name}`;
    const svc = services.get(svcId);
    if (!svc) return { link, virtualService: vsName, problem: `VirtualService ${vsName} routes ${path} to ${dest.host}, but the output has no Service ${svcId}` };
    const port = dest.port?.number;
    if (port !== undefined && !(svc.spec?.ports ?? []).some((p: { port: number }) => p.port === port)) {
      return { link, virtualService: vsName, service: svcId, problem: `VirtualService ${vsName} routes ${path} to port ${port} of Service ${svcId}, which has no such port` };
    }
    return { link, virtualService: vsName, service: svcId };
  });
}
