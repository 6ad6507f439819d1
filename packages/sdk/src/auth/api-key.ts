import type { AuthStrategy } from './strategy.js';

export interface ApiKeyStrategyOptions {
  apiKey: string;
  siteId?: string;
  accountId?: string;
}

export interface ApiKeyAuth extends AuthStrategy {
  setSiteId(siteId: string): void;
  setAccountId(accountId: string): void;
}

/** Server-side auth: `Authorization: <apiKey>` plus `wix-site-id` / `wix-account-id`. */
export function ApiKeyStrategy(options: ApiKeyStrategyOptions): ApiKeyAuth {
  let { siteId, accountId } = options;
  return {
    async getAuthHeaders() {
      const headers: Record<string, string> = { Authorization: options.apiKey };
      if (siteId) headers['wix-site-id'] = siteId;
      if (accountId) headers['wix-account-id'] = accountId;
      return { headers };
    },
    setSiteId(id) {
      siteId = id;
    },
    setAccountId(id) {
      accountId = id;
    },
  };
}
