import { Duration } from 'cdk8s';
import { appWrapperConfigDocument, renderAppWrapperConfig, validateAppWrapperConfig } from '../../../constructs/appwrapper/config';

const MANAGER = { healthPort: 8081, metricsPort: 8443, leaderElection: true };

describe('AppWrapper configuration', () => {
  test('by default: upstream install settings, Kueue integration on', () => {
    expect(renderAppWrapperConfig(appWrapperConfigDocument({}, MANAGER))).toBe([
      'appwrapper:',
      '  enableKueueIntegrations: true',
      'controllerManager:',
      '  health:',
      '    bindAddress: :8081',
      '  metrics:',
      '    bindAddress: :8443',
      '  leaderElection: true',
      '',
    ].join('\n'));
  });

  test('props set their upstream keys; durations are Go durations in nanoseconds', () => {
    const doc = appWrapperConfigDocument({
      kueueIntegration: false,
      defaultQueueName: 'default-queue',
      slackQueueName: 'slack',
      schedulerName: 'scheduler-plugins-scheduler',
      userRbacAdmissionCheck: false,
      monitorNodes: false,
      faultTolerance: { retryPausePeriod: Duration.seconds(30), successTtlCeiling: Duration.days(1), retryLimit: 5 },
    }, MANAGER);
    expect(doc.appwrapper).toEqual({
      enableKueueIntegrations: false,
      defaultQueueName: 'default-queue',
      slackQueueName: 'slack',
      schedulerName: 'scheduler-plugins-scheduler',
      userRBACAdmissionCheck: false,
      autopilot: { monitorNodes: false },
      faultTolerance: { resetPause: 30_000_000_000, successTTLCeiling: 86_400_000_000_000, retryLimit: 5 },
    });
  });

  test('a valid fault tolerance passes', () => {
    expect(() => validateAppWrapperConfig('p/aw', { faultTolerance: { admissionGracePeriod: Duration.minutes(2), gracePeriodCeiling: Duration.hours(1) } })).not.toThrow();
  });

  test('fails when a grace period exceeds the ceiling', () => {
    expect(() => validateAppWrapperConfig('p/aw', { faultTolerance: { gracePeriodCeiling: Duration.minutes(5) } })).toThrow(
      'p/aw: faultTolerance.deletionGracePeriod (10 minutes) exceeds faultTolerance.gracePeriodCeiling (5 minutes); ' +
        'the controller rejects this configuration and exits: lower deletionGracePeriod or raise gracePeriodCeiling',
    );
  });

  test('fails when the admission grace period exceeds the warmup grace period', () => {
    expect(() => validateAppWrapperConfig('p/aw', { faultTolerance: { admissionGracePeriod: Duration.minutes(6) } })).toThrow(
      'p/aw: faultTolerance.admissionGracePeriod (6 minutes) exceeds faultTolerance.warmupGracePeriod (5 minutes); ' +
        'the controller rejects this configuration and exits: lower admissionGracePeriod or raise warmupGracePeriod',
    );
  });

  test('fails when the success TTL is not positive', () => {
    expect(() => validateAppWrapperConfig('p/aw', { faultTolerance: { successTtlCeiling: Duration.seconds(0) } })).toThrow(
      'p/aw: faultTolerance.successTtlCeiling (0 seconds) must be a positive duration',
    );
  });

  test('fails when the retry limit is negative', () => {
    expect(() => validateAppWrapperConfig('p/aw', { faultTolerance: { retryLimit: -1 } })).toThrow('p/aw: faultTolerance.retryLimit -1 must be a whole number >= 0');
  });

  test('fails when a queue name is not a LocalQueue name', () => {
    expect(() => validateAppWrapperConfig('p/aw', { defaultQueueName: 'Team_A' })).toThrow(
      "p/aw: defaultQueueName 'Team_A' must name a LocalQueue: a DNS subdomain (at most 253 characters: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit)",
    );
  });
});
