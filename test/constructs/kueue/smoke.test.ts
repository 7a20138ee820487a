import { Kueue } from '../../../constructs/kueue';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { build, problemsOf } from '../../platforms/helpers';

test('smoke', () => {
  let out: any;
  const p = problemsOf(() => { out = build((app) => {
    const pl = new Platform(app, 'p', { name: 'kueue', prerequisites: [CERT_MANAGER] });
    const k = new Kueue(pl, 'kueue');
    k.addResourceFlavor('default-flavor');
    k.addClusterQueue('cluster-queue', { spec: { namespaceSelector: {}, resourceGroups: [{ coveredResources: ['cpu', 'memory'], flavors: [{ name: 'default-flavor', resources: [{ name: 'cpu', nominalQuota: 9 }, { name: 'memory', nominalQuota: '36Gi' }] }] }] } });
    k.addLocalQueue('user-queue', { namespace: 'default', clusterQueue: 'cluster-queue' });
    return pl;
  }); });
  console.log(p.join('\n'));
  if (out) console.log([...out.files.keys()].join('\n'), out.model.objects.length);
});
