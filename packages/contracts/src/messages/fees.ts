/** The fee of one live filing (spec section 8), in pence; a split CT600 is one filing, one fee. */
export const FILING_FEE_PENCE = 2000;
export const FILING_FEE_CURRENCY = "GBP";
