import { newPlatform, TestComponent } from './support';
import { DashboardLinks, dashboardLinkProblems, renderDashboardLinks } from '../../lib/dashboard';

class LinkedComponent extends TestComponent {
  public links(l: DashboardLinks): void {
    this.addDashboardLinks(l);
  }
}

describe('dashboard links', () => {
  test('renders menu items, sections, external links, quick links and documentation in contribution order', () => {
    const doc = renderDashboardLinks([
      { menu: [{ link: '/jupyter/', text: 'Notebooks', icon: 'book' }], quick: [{ link: '/jupyter/new', text: 'Create a new Notebook', desc: 'Kubeflow Notebooks' }] },
      {
        menu: [{ text: 'Pipelines', icon: 'kubeflow:pipeline-centered', items: [{ link: '/pipeline/#/pipelines', text: 'Pipelines' }] }],
        external: [{ link: 'https://grafana.example.com', text: 'Grafana' }],
        documentation: [{ link: 'https://www.kubeflow.org/', text: 'Kubeflow Website', desc: 'The Kubeflow website' }],
      },
    ]);
    expect(doc).toEqual({
      menuLinks: [
        { type: 'item', link: '/jupyter/', text: 'Notebooks', icon: 'book' },
        { type: 'section', text: 'Pipelines', icon: 'kubeflow:pipeline-centered', items: [{ type: 'item', link: '/pipeline/#/pipelines', text: 'Pipelines' }] },
      ],
      externalLinks: [{ type: 'item', link: 'https://grafana.example.com', text: 'Grafana' }],
      quickLinks: [{ desc: 'Kubeflow Notebooks', link: '/jupyter/new', text: 'Create a new Notebook' }],
      documentationItems: [{ desc: 'The Kubeflow website', link: 'https://www.kubeflow.org/', text: 'Kubeflow Website' }],
    });
  });

  test('no contributions -> empty lists', () => {
    expect(renderDashboardLinks([])).toEqual({ menuLinks: [], externalLinks: [], quickLinks: [], documentationItems: [] });
  });

  test('components have no links by default and collect what they declare', () => {
    const p = newPlatform();
    const plain = new TestComponent(p, 'plain');
    const linked = new LinkedComponent(p, 'linked');
    linked.links({ menu: [{ link: '/widgets/', text: 'Widgets' }] });
    expect(plain.dashboardLinks).toEqual([]);
    expect(linked.dashboardLinks).toEqual([{ menu: [{ link: '/widgets/', text: 'Widgets' }] }]);
  });

  test('problems: relative links, external links that are not URLs, empty texts and sections', () => {
    expect(dashboardLinkProblems({
      menu: [{ link: 'widgets', text: 'Widgets' }, { text: 'Empty', items: [] }],
      external: [{ link: '/grafana', text: 'Grafana' }],
      quick: [{ link: '/x', text: ' ', desc: '' }],
    })).toEqual([
      "menu entry 'Widgets' link 'widgets' must be a path starting with / or an http(s) URL",
      "menu section 'Empty' has no items",
      "external link 'Grafana' link '/grafana' must be an http(s) URL",
      'quick link has an empty text',
    ]);
  });

  test('fails when a component declares a bad link, naming the component', () => {
    const c = new LinkedComponent(newPlatform(), 'linked');
    expect(() => c.links({ menu: [{ link: 'widgets', text: 'Widgets' }] }))
      .toThrow("p/linked: dashboard links: menu entry 'Widgets' link 'widgets' must be a path starting with / or an http(s) URL");
  });
});
