import { restrictedContainerSecurityContext, RootFilesystem } from '../../lib/security';

describe('restrictedContainerSecurityContext: the one restricted container securityContext', () => {
  test('by default: restricted, and the root filesystem left as upstream leaves it', () => {
    expect(restrictedContainerSecurityContext()).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      privileged: false,
      readOnlyRootFilesystem: undefined,
      runAsNonRoot: true,
      runAsUser: undefined,
      runAsGroup: undefined,
      seccompProfile: undefined,
    });
  });

  test('readOnlyRootFilesystem is whatever the RootFilesystem says', () => {
    expect(restrictedContainerSecurityContext({ rootFilesystem: RootFilesystem.readOnly([{ name: 'tmp', mountPath: '/tmp' }]) }).readOnlyRootFilesystem).toBe(true);
    expect(restrictedContainerSecurityContext({ rootFilesystem: RootFilesystem.asUpstream([{ name: 'tmp', mountPath: '/tmp' }]) }).readOnlyRootFilesystem).toBeUndefined();
  });

  test('user, group and a container-level seccompProfile where asked', () => {
    expect(restrictedContainerSecurityContext({ runAsUser: 1000, runAsGroup: 0, seccompProfile: true })).toMatchObject({
      runAsUser: 1000,
      runAsGroup: 0,
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });
});
