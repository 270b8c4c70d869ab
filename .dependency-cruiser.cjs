/**
 * Who may import whom (docs/architecture.md, "Dependency rules"). Checked in CI by
 * `npm run depcruise`. Paths are matched on the real file locations (workspace symlinks are
 * resolved), so `@veil/x` imports are checked as the folders they point to.
 */
const adapters = '^packages/adapters/';
module.exports = {
  forbidden: [
    {
      name: 'contracts-import-only-zod',
      comment: 'contracts hold schemas and types shared by everyone; they depend on nothing of ours.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^(packages|services|web)/', pathNot: '^packages/contracts/' },
    },
    {
      name: 'crypto-is-standalone',
      comment:
        'The crypto module runs unchanged in browsers and Node: no node: modules and no imports, but hash-wasm for Argon2id (WebAssembly, which WebCrypto lacks).',
      severity: 'error',
      from: { path: '^packages/crypto/src/' },
      to: { pathNot: '^packages/crypto/src/|^node_modules/hash-wasm/' },
    },
    {
      name: 'ports-and-kernel-import-contracts-only',
      severity: 'error',
      from: { path: '^packages/(ports|kernel)/src/' },
      to: { path: '^(packages|services|web)/', pathNot: '^packages/(contracts|ports|kernel)/' },
    },
    {
      name: 'adapters-import-ports-and-their-driver-only',
      comment: 'An adapter never imports a service or another adapter.',
      severity: 'error',
      from: { path: `${adapters}([^/]+)/` },
      to: {
        path: '^(apps|services|web|packages/kernel)/|^packages/adapters/',
        pathNot: `${adapters}$1/`,
      },
    },
    {
      name: 'only-the-app-imports-adapters',
      comment: 'Adapters are chosen by configuration in apps/veil/src/adapters.ts alone.',
      severity: 'error',
      from: {
        path: '^(services|web|packages/(contracts|ports|kernel|tokens|crypto))/',
        pathNot: '\\.test\\.ts$|/test/',
      },
      to: { path: adapters },
    },
    {
      name: 'services-import-no-driver',
      comment:
        'Drivers (Redis, NATS, MongoDB, S3, the Socket.IO Redis adapter) are adapters chosen in apps/veil; services, their tests included, see ports.',
      severity: 'error',
      from: { path: '^services/' },
      to: {
        path: 'node_modules/(ioredis|nats|@nats-io/[^/]+|mongodb|minio|@socket.io/redis-adapter|@aws-sdk/[^/]+)/',
      },
    },
    {
      name: 'services-do-not-import-each-other',
      comment: 'Services share only @veil/contracts, over events or RPC.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'domain-is-pure',
      comment: 'Domain code imports contracts and kernel only: no ports, no I/O.',
      severity: 'error',
      from: { path: '^services/[^/]+/src/domain/' },
      to: {
        path: '^(packages|services)/|^node:(fs|net|http)',
        pathNot: '^(packages/(contracts|kernel)/|services/[^/]+/src/domain/)',
      },
    },
    {
      name: 'web-imports-contracts-and-crypto-only',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^(packages|services)/', pathNot: '^packages/(contracts|crypto)/' },
    },
    {
      name: 'web-features-import-each-other-through-their-index',
      comment:
        "A feature's index.ts is its public entry point (worker.ts, where it has one, the part the service worker may load): another feature imports those files alone, never the files behind them.",
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/($1/|[^/]+/(index|worker)\\.ts$)' },
    },
    {
      name: 'web-features-import-only-the-hooks-of-app',
      comment:
        'app/ composes the features; what they need of it (the typed hooks, the store types) is app/hooks.ts, which only type-imports the store.',
      severity: 'error',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/', pathNot: '^web/src/app/hooks\\.ts$' },
    },
    {
      name: 'web-shared-code-imports-no-feature',
      comment:
        'lib/ and components/ sit below every feature (and app/ above them all), so features can share them without a cycle.',
      severity: 'error',
      from: { path: '^web/src/(lib|components)/' },
      to: { path: '^web/src/(features|app)/' },
    },
    {
      name: 'nothing-imports-the-composition-root',
      comment:
        'apps/ sits on top of the house: it imports services and adapters, and nothing below imports it (tests, benchmarks and deployment checks may start it).',
      severity: 'error',
      from: { path: '^(packages|services|web/src)/', pathNot: '\\.test\\.ts$|/test/' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-test',
      comment: 'Production code never imports test code (packages/test-env belongs to the test run).',
      severity: 'error',
      from: { pathNot: '\\.test\\.ts$|/test/|/e2e/|/checks/|^bench/|^packages/test-env/' },
      to: { path: '\\.test\\.ts$|/test/|/e2e/|^bench/|^packages/test-env/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
    combinedDependencies: true,
  },
};
