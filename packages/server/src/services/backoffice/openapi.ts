// The OpenAPI document of Bodega's own calls, generated from the route schemas by @fastify/swagger.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { PRODUCT_CSV_COLUMNS } from './products-csv.js';

export const OPENAPI_PATH = '/bodega/v1/openapi.json';

/** Bodega's own paths; the wire-compatible ones are documented by the Wix REST reference. */
const DOCUMENTED = [/^\/bodega\/v1\//, /^\/_api\/bodega\/v1\//, /^\/stores\/v1\/bulk\/products\//];

const DESCRIPTION = `Bodega's calls beyond the Wix Headless REST surface: the back office (dashboard, search,
API keys, mail outbox, exports, import jobs, the audit log), site and commerce settings, coupons and webhooks.

Authentication: \`Authorization: <access token>\` of the site's owner or a contributor (signed in
through the hosted pages), or \`Authorization: <API key>\` with \`wix-site-id: <siteId>\`.
Errors have the wire shape \`{ message, details: { applicationError | validationError } }\`.
Money is a decimal string in the site's currency.

Products CSV (export and import share it; an import accepts any subset of the columns, \`name\` and
\`price\` are required for a new product, a row with an \`id\` of an existing product updates it):
${PRODUCT_CSV_COLUMNS.map((c) => `- \`${c.name}\`: ${c.description}`).join('\n')}`;

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Bodega back-office API', version, description: DESCRIPTION },
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: "The owner's or a contributor's access token" },
          apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An API key, with the wix-site-id header' },
        },
      },
      security: [{ accessToken: [] }, { apiKey: [] }],
    },
    transform: ({ schema, url }) => ({ schema: DOCUMENTED.some((re) => re.test(url)) && url !== OPENAPI_PATH ? schema : { ...schema, hide: true }, url }),
  });
}

/** Served after every route is registered, so the document covers them all. */
export function openApiRoute(app: FastifyInstance): void {
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
