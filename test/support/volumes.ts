/**
 * Plays a volume provisioner on a test cluster (test/support/cluster.ts), as a cluster's
 * default StorageClass would: each PersistentVolumeClaim that waits for a volume gets a
 * PersistentVolume made for it (its size, access modes and class, reserved for it by
 * claimRef). The binding itself is kube-controller-manager's (the persistentvolume binder),
 * and the scheduler places the claim's pods only once it is bound, as on a real cluster.
 * The volumes are never mounted (the node agent starts no containers).
 */
import * as k8s from '@kubernetes/client-node';
import { Json, ObjectWatch } from './watch';
import { ApiError, KubeClient } from '../../lib/cluster/client';

export const PROVISIONER = 'test-provisioner';

export class VolumeProvisioner {
  /** The claims given a volume, namespace/name. */
  public readonly provisioned: string[] = [];
  public readonly errors: string[] = [];
  private readonly client: KubeClient;
  private readonly claims: ObjectWatch;
  private readonly done = new Set<string>();

  constructor(kubeConfig: k8s.KubeConfig) {
    this.client = new KubeClient(kubeConfig);
    this.claims = new ObjectWatch(kubeConfig, '/api/v1/persistentvolumeclaims', (type, pvc) => {
      if (type !== 'DELETED') void this.provision(pvc);
    });
  }

  public start(): void {
    this.claims.start();
  }

  private async provision(pvc: Json): Promise<void> {
    if (pvc.spec?.volumeName || pvc.status?.phase === 'Bound' || pvc.metadata?.deletionTimestamp || this.done.has(pvc.metadata.uid)) return;
    this.done.add(pvc.metadata.uid);
    const { namespace, name, uid } = pvc.metadata;
    try {
      await this.client.apply({
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: `pvc-${uid}`, labels: { 'test.mlplatform.io/provisioned-for': `${namespace}.${name}`.slice(0, 63) } },
        spec: {
          capacity: { storage: pvc.spec?.resources?.requests?.storage ?? '1Gi' },
          accessModes: pvc.spec?.accessModes ?? ['ReadWriteOnce'],
          storageClassName: pvc.spec?.storageClassName ?? '',
          volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
          persistentVolumeReclaimPolicy: 'Delete',
          claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace, name, uid },
          // Never mounted: the node agent starts no containers.
          hostPath: { path: `/nonexistent/test-volumes/${uid}` },
        },
      } as unknown as { apiVersion: string; kind: string; metadata: { name: string } }, { fieldManager: PROVISIONER });
      this.provisioned.push(`${namespace}/${name}`);
    } catch (e) {
      this.done.delete(uid);
      if (!(e instanceof ApiError && e.status === 409)) this.errors.push(`volume for ${namespace}/${name}: ${(e as Error).message}`);
    }
  }

  public stop(): void {
    this.claims.stop();
  }
}
