/**
 * The official @wix/data modules against a listening Bodega test server. The SDK always speaks
 * https to www.wixapis.com (tokens), edge.wixapis.com (module calls under OAuthStrategy) or the
 * apiBaseUrl it is given; the global fetch is wrapped to send those origins to the local server.
 */
import type { FastifyInstance } from 'fastify';
import { createClient, ApiKeyStrategy, OAuthStrategy, TokenRole, type Tokens } from '@wix/sdk';
import { items, collections, indexes } from '@wix/data';
import type { TestSite } from './harness.js';
import { listen, redirectWixFetch } from './wix-fetch.js';

/** A custom API host: module calls use the `/_api/cloud-data/…` prefix there (wire reference §1.2). */
export const API_HOST = 'api.bodega.test';

export interface SdkServer {
  origin: string;
  /** "METHOD /path" of every redirected request, in order. */
  calls: string[];
  restore(): void;
}

export async function serveForSdk(app: FastifyInstance): Promise<SdkServer> {
  const origin = await listen(app);
  const { calls, restore } = redirectWixFetch(origin, [`https://${API_HOST}`]);
  return { origin, calls, restore };
}

const modules = { items, collections, indexes };

/** An API-key client (an APP caller, an admin) on the custom host: `/_api/cloud-data/…` paths. */
export function apiKeyClient(site: TestSite) {
  return createClient({
    modules,
    auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }),
    host: { apiBaseUrl: API_HOST },
    useCDN: false,
  });
}

/** A visitor or member client as a storefront makes it: module calls go to edge.wixapis.com, `/wix-data/…`. */
export function tokenClient(site: TestSite, tokens?: Tokens) {
  return createClient({ modules, auth: OAuthStrategy({ clientId: site.clientId, ...(tokens ? { tokens } : {}) }) });
}

/** Tokens in the SDK's shape from the token endpoint's answer. */
export function sdkTokens(answer: { access_token: string; refresh_token: string; expires_in: number }, role: 'visitor' | 'member'): Tokens {
  return {
    accessToken: { value: answer.access_token, expiresAt: Math.floor(Date.now() / 1000) + answer.expires_in },
    refreshToken: { value: answer.refresh_token, role: role === 'member' ? TokenRole.MEMBER : TokenRole.VISITOR },
  };
}
