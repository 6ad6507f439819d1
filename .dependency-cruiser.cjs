/**
 * The architecture, checked on every `npm test` (`npm run depcruise`). Rules go by folder
 * pattern, so a new service or web-app folder is covered the day it lands.
 */
const SERVICE = '^packages/server/src/services/([^/]+)/';
const KERNEL = '^packages/server/src/services/commerce/';
const NOT_TEST = '\\.test\\.ts$|^packages/server/src/test/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No module reaches itself through its imports (type-only imports included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-service',
      comment: 'platform/ is the bottom layer: it never imports a service or the app wiring.',
      severity: 'error',
      from: { path: '^packages/server/src/platform/', pathNot: NOT_TEST },
      to: { path: '^packages/server/src/(services/|app\\.ts$|main\\.ts$|cli\\.ts$)' },
    },
    {
      name: 'store-is-the-bottom-of-a-service',
      comment: 'Inside a service, store.ts (SQL) imports neither its service nor its routes.',
      severity: 'error',
      from: { path: SERVICE + 'store\\.ts$' },
      to: { path: '^packages/server/src/services/$1/(service|routes)\\.ts$' },
    },
    {
      name: 'only-routes-import-routes',
      comment: 'routes → service → store: no file of a service but its routes imports routes.ts.',
      severity: 'error',
      from: { path: SERVICE, pathNot: [NOT_TEST, SERVICE + 'routes\\.ts$'] },
      to: { path: '^packages/server/src/services/[^/]+/routes\\.ts$' },
    },
    {
      name: 'routes-go-through-the-service',
      comment: 'routes.ts maps HTTP to its service and never runs SQL itself (no store.ts import).',
      severity: 'error',
      from: { path: SERVICE + 'routes\\.ts$' },
      to: { path: '^packages/server/src/services/[^/]+/store\\.ts$' },
    },
    {
      name: 'services-meet-at-service-ts',
      comment: 'A service imports another service only through its service.ts, or the commerce kernel (services/commerce: line items, pricing, shared schemas); the wiring is in app.ts.',
      severity: 'error',
      from: { path: SERVICE, pathNot: NOT_TEST },
      to: { path: '^packages/server/src/services/', pathNot: ['^packages/server/src/services/$1/', '^packages/server/src/services/[^/]+/service\\.ts$', KERNEL] },
    },
    {
      name: 'kernel-stands-below-its-users',
      comment: 'The commerce kernel is what cart, checkout and orders stand on: it imports none of them (nor routes or stores of any service).',
      severity: 'error',
      from: { path: KERNEL },
      to: { path: ['^packages/server/src/services/(cart|checkout|orders)/', '^packages/server/src/services/[^/]+/(routes|store)\\.ts$'] },
    },
    {
      name: 'sdk-imports-no-server',
      comment: 'The SDK is a wire client: it never imports server code. Only the field limits the server\'s schemas enforce (plain data) pass, so forms check the server\'s own numbers instead of copies.',
      severity: 'error',
      from: { path: '^packages/sdk/' },
      to: { path: '^(packages/server|apps)/', pathNot: '^packages/server/src/platform/field-limits\\.ts$' },
    },
    {
      name: 'field-limits-are-plain-data',
      comment: 'platform/field-limits.ts reaches the SDK and the browser: it imports nothing, so no server code goes with it.',
      severity: 'error',
      from: { path: '^packages/server/src/platform/field-limits\\.ts$' },
      to: {},
    },
    {
      name: 'web-talks-through-the-sdk',
      comment: 'The web app imports @bodega/sdk, never the server.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^packages/server/' },
    },
    {
      name: 'web-folders-have-no-cycles',
      comment: 'A web-app folder never reaches itself through other folders: shared code lives in ui/, domain/ or shop/, not in a feature another feature imports back.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/web/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Style sheets import nothing, so they are left out of the graph: a provider that loads the
    // global styles (shop/ → ui/styles.css) is not a dependency on ui/'s code.
    exclude: { path: ['(^|/)(dist|node_modules)/', '\\.css$'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    combinedDependencies: false,
  },
};
