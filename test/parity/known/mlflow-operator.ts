import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's mlflow-operator install (see ../known-defects.ts): none. */
export const KNOWN_MLFLOW_OPERATOR: readonly KnownDefect[] = [];
