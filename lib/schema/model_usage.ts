/** Model usage of one call or one row: what agents, judges and rows report about model calls. */

/** Model usage of one call or one row; null when unknown or not a model. */
export interface ModelUsage {
  /** True when every model call was answered from the cache. */
  cacheHit: boolean;
  promptTokens: number | null;
  completionTokens: number | null;
}
