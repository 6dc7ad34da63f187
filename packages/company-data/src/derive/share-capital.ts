import type { Pence } from "../money.ts";
import { entityTypeHasShareCapital } from "./entity-type.ts";
import type { PriorYearFigures } from "./prior-year-figures.ts";

/** The spec's default when nothing else is known: 100.00 (e.g. 100 shares of 1.00). */
export const DEFAULT_SHARE_CAPITAL_PENCE: Pence = 10_000;

/**
 * Share capital in pence. The registry's public data has no structured share-capital figure,
 * so: the prior accounts' figure when known; else 0 for a company type without share capital
 * (limited by guarantee, unlimited without share capital); else the default 100.00.
 */
export function deriveShareCapital(priorFigures?: PriorYearFigures | null, entityType?: string): Pence {
  if (priorFigures !== undefined && priorFigures !== null) return priorFigures.shareCapital;
  if (entityType !== undefined && !entityTypeHasShareCapital(entityType)) return 0;
  return DEFAULT_SHARE_CAPITAL_PENCE;
}
