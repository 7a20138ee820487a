import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's central-dashboard install (see ../known-defects.ts). */
export const KNOWN_CENTRAL_DASHBOARD: readonly KnownDefect[] = [];
