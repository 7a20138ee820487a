import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's profile-controller install (see ../known-defects.ts). */
export const KNOWN_PROFILE_CONTROLLER: readonly KnownDefect[] = [];
