// Lint for the server, the SDK (with its integration tests) and the web app, with type information
// (typescript-eslint's project service reads each package's tsconfig.json). Rules go by folder, so new files and
// folders are covered as they land. Each rule says in one line which house rule it checks.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const STATIC_CAST = { selector: "TSAsExpression > TSTypeReference[typeName.name='Static']", message: 'Type the route with withTypeProvider<TypeBoxTypeProvider>() and its schema instead of casting to Static<…>.' };
const NOW = { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Read the injected clock instead of Date.now().' };
// One database idiom: services and stores take the context (`ctx`) and read `ctx.db` themselves; a raw
// handle passed around can query outside the transaction the caller is in (or wait on its lock on PGlite).
const DB_PARAM = "[typeAnnotation.typeAnnotation.typeName.name='Db']";
const RAW_DB = [
  { selector: "TSTypeReference[typeName.name='Queryable']", message: 'Take the context (ctx: SiteContext or DbContext) and read ctx.db, not a raw Queryable.' },
  { selector: "CallExpression[callee.property.name='transaction']", message: 'Open a transaction with withTransaction(ctx, fn): its context carries the transaction to every call inside.' },
  { selector: "CallExpression[callee.name!=/^(poolContext|siteContext)$/] > MemberExpression.arguments[property.name='db']", message: 'Pass the context (ctx), not its handle ctx.db: stores and recordEvent read ctx.db themselves.' },
  ...[`FunctionDeclaration > Identifier.params${DB_PARAM}`, `ArrowFunctionExpression > Identifier.params${DB_PARAM}`, `MethodDefinition[kind='method'] > FunctionExpression > Identifier.params${DB_PARAM}`]
    .map((selector) => ({ selector, message: 'Take a context, not the pool: app.ts hands the pool to constructors only, which wrap it with poolContext/siteContext.' })),
];
const SOURCES = ['packages/server/src/**/*.ts', 'packages/sdk/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'];

/** The rules every linted file follows. */
const HOUSE_RULES = {
  // Type the shapes: no `any`, no silenced compiler.
  '@typescript-eslint/no-explicit-any': 'error',
  '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': true, 'ts-expect-error': true, 'ts-nocheck': true }],
  // A promise is awaited or handed on on purpose (`void` marks fire-and-forget).
  '@typescript-eslint/no-floating-promises': 'error',
  // Unused code is deleted, not kept; `_name` marks a parameter an interface requires.
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
  // Fastify handlers are async by contract even when they await nothing.
  '@typescript-eslint/require-await': 'off',
  // Signal and event handlers may be async; what they return is not awaited by design.
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
  // Judgement calls the type checker already covers (unknown wire values are stringified on purpose,
  // literal unions document the expected values, generic-call casts read more plainly).
  '@typescript-eslint/no-base-to-string': 'off',
  '@typescript-eslint/no-redundant-type-constituents': 'off',
  '@typescript-eslint/no-unnecessary-type-assertion': 'off',
  // A closure may read a variable before its one assignment.
  'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
  // A file that needs a table of contents is two files (STYLE.md). Every line counts, comments and
  // blank lines too: they are read and scrolled like code, and the figure is then what `wc -l` says.
  'max-lines': ['error', { max: 600, skipBlankLines: false, skipComments: false }],
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/web/vite.config.*', '**/*.d.ts'] },
  {
    files: SOURCES,
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: HOUSE_RULES,
  },
  {
    // The SDK's integration tests are type-checked by tsconfig.tools.json, not the SDK's own tsconfig
    // (which holds only src), so the project service cannot place them; they name that project.
    files: ['packages/sdk/integration/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './tsconfig.tools.json', tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: HOUSE_RULES,
  },
  {
    files: ['packages/server/src/**/*.ts'],
    rules: {
      // Routes are typed by their schemas through the TypeBox provider, never cast.
      'no-restricted-syntax': ['error', STATIC_CAST],
    },
  },
  {
    files: ['packages/server/src/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      // Services read time from the injected clock (ctx.now(), the service's now), so tests can move it;
      // they and their stores take the context, never a raw database handle (RAW_DB).
      'no-restricted-syntax': ['error', STATIC_CAST, NOW, ...RAW_DB],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'packages/server/src/test/**/*.ts'],
    rules: {
      // Tests read the wire's JSON as it comes (`res.json()` is untyped) and assert on it.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Tests pass methods as callbacks, reject with plain values and send out-of-range numbers on purpose.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      'no-loss-of-precision': 'off',
      'no-restricted-syntax': ['error',
        // Every test runs: no .only or .skip.
        { selector: "MemberExpression[object.name=/^(it|test|describe)$/][property.name=/^(only|skip)$/]", message: 'No .only/.skip in tests.' },
        // Tests run on the real databases, never a mocked driver.
        { selector: "CallExpression[callee.object.name='vi'][callee.property.name='mock']", message: 'No vi.mock: tests use PGlite or PostgreSQL.' },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      // React handlers and router navigations fire and forget; TanStack Query reports their failures.
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false, arguments: false } }],
      // Form and router hooks hand out methods, and some packages' types resolve only through Vite's bundler resolution.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // The web app talks to the server through @bodega/sdk and TanStack Query hooks only.
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use @bodega/sdk through a TanStack Query hook.' }],
    },
  },
  {
    // A feature's queries and mutations (and their keys and cache changes) live in its queries.ts, so
    // a page reads as what it shows and every key comes from one factory. shop/member.ts is the
    // signed-in state's own queries module, used by every feature.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/queries.ts', 'apps/web/src/shop/member.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{
          name: '@tanstack/react-query',
          importNames: ['useQuery', 'useQueries', 'useInfiniteQuery', 'useSuspenseQuery', 'useSuspenseQueries', 'useSuspenseInfiniteQuery', 'useMutation', 'useQueryClient'],
          message: 'Query hooks live in the feature\'s queries.ts: add a hook there and call it.',
        }],
      }],
    },
  },
);
