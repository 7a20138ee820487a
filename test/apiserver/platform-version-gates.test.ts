/**
 * The default platforms' version-gated components and flagged CRDs on a real API server
 * (test/support/platform-on-apiserver.ts, `testVersionGatesOnApiServer`); the rest of each
 * platform is applied for real by its bring-up in motion (platforms.test.ts checks which).
 * The serving platform has no gated component: motion-serving.test.ts applies it whole and
 * checks that our compilation flags none of its CRDs.
 */
import { DEFAULT_PLATFORMS } from '../../platforms';
import { testVersionGatesOnApiServer } from '../support/platform-on-apiserver';

testVersionGatesOnApiServer(DEFAULT_PLATFORMS.filter((p) => p.name !== 'serving'));
