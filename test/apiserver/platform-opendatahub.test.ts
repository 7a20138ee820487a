/** The opendatahub platform applied to a real API server: see test/support/platform-on-apiserver.ts. */
import { testPlatformOnApiServer } from '../support/platform-on-apiserver';

testPlatformOnApiServer('opendatahub');
