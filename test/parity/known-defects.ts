import { DifferencePattern, FactKind } from '../../lib/parity';

/**
 * Defects being fixed on other branches (issue "37 run-time defects found against
 * upstream's installs"), by ID. Each fixes a difference from upstream that is not on purpose.
 */
export type DefectId =
  | 'KUEUE-VIS' | 'DSPO-START' | 'DSPO-ESCALATE' | 'KFP-API-DB' | 'KFP-API-USERID' | 'KFP-API-RUNNER-SA' | 'KFP-PA-TOKEN'
  | 'KFP-PA-REPORT' | 'KFP-MYSQL-AUTH' | 'KFP-SEAWEED-SVC' | 'JOBSET-SEL' | 'WVA-SATCFG' | 'WVA-SVCMON' | 'CF-PODS' | 'OMC-PARAMS'
  | 'KFP-ENVOY' | 'KFP-VS' | 'KFP-SWF-AUTH' | 'KFP-API-V2IMAGES' | 'KFP-UI-AUTHZ' | 'KFP-SEAWEED-AUTH' | 'MRO-VERSION' | 'MRO-ENV'
  | 'MM-STORAGECONFIG' | 'PROF-PSS' | 'AIGW-AUTH' | 'KFP-ISOLATION' | 'MM-NETPOL' | 'PD-NETPOL' | 'KFP-UI-SECRETS' | 'CD-RBAC'
  | 'LLS-METRICS' | 'OMC-ISVC-UPDATE' | 'ARGO-PRIO' | 'KFP-MLMD-ARGS' | 'MR-MYSQL' | 'DSPO-ARGO-USERROLES' | 'KFP-SEAWEED-VER'
  | 'CM-SHORTNAMES';

/**
 * A known difference from upstream that is not a declared deviation: a defect with its ID,
 * or UNTRIAGED (not yet attributed) with a one-line description. The parity test tolerates
 * and reports them; an entry that no longer matches a difference fails the test (delete it
 * when its fix merges).
 */
export interface KnownDefect {
  /** The facts file the difference is found against. */
  readonly install: string;
  readonly defect: DefectId | 'UNTRIAGED';
  readonly fact: DifferencePattern;
  /**
   * The items covered, each exactly (env names, args, triples...): each must still match a
   * difference, so that fixing one shows which to delete.
   * @default - `fact.item` (or any item)
   */
  readonly items?: readonly string[];
  /** What is wrong, in one line (required for UNTRIAGED). */
  readonly note?: string;
}

/** One entry per item, with the entry it came from. */
export interface KnownDefectItem {
  readonly entry: KnownDefect;
  readonly fact: DifferencePattern;
}

/** Entries split into one pattern per listed item. */
export function knownDefectItems(entries: readonly KnownDefect[]): KnownDefectItem[] {
  return entries.flatMap((entry) => (entry.items ?? [entry.fact.item]).map((item) => ({ entry, fact: { ...entry.fact, item } })));
}

const F = FactKind;

export const KNOWN_DEFECTS: readonly KnownDefect[] = [
];
