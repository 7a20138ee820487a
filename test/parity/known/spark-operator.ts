import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's spark-operator install (see ../known-defects.ts). */
export const KNOWN_SPARK_OPERATOR: readonly KnownDefect[] = [];
