// Lint: typescript-eslint's recommended rules, and the layers of docs/architecture.md as an
// import-boundary rule, so an import that points up or across fails `npm run lint`
// (docs/decisions/035-layers-and-lint.md).
import boundaries from 'eslint-plugin-boundaries'
import tseslint from 'typescript-eslint'

/**
 * The layers, top to bottom. A domain is one commerce concern's folder. `rules` are pure tables
 * and checks (no app imports) that every layer may read: a state table's labels, the limits both
 * engines hold, the honeypot field's name, the strength estimator.
 */
const elements = [
	{
		type: 'rules',
		pattern: [
			'app/cart/limits.ts',
			'app/catalog/variants.ts',
			'app/orders/status.ts',
			'app/orders/totals.ts',
			'app/shipping/countries.ts',
			'app/payments/events/outcomes.ts',
			'app/payments/instructions.ts',
			'app/security/form-fields.ts',
			'app/security/strength.server.ts',
			'app/ui/money.ts',
		],
		mode: 'file',
	},
	{ type: 'routes', pattern: 'app/routes/**' },
	{ type: 'app-shell', pattern: ['app/root.tsx', 'app/entry.server.tsx', 'app/routes.ts'], mode: 'file' },
	{ type: 'door', pattern: 'app/repositories.server.ts', mode: 'file' },
	// The pre-exposure checklist reads every concern's configuration and writes nothing; the door hands it to the admin.
	{ type: 'diagnostics', pattern: 'app/diagnostics/**' },
	// The activity log: every concern writes to it in the transaction of its change, so it sits below them.
	{ type: 'audit', pattern: 'app/audit/**' },
	// Modules [R31]: the registry lists them, the kernel compiles them and is their only way to data.
	{ type: 'module-registry', pattern: 'app/modules/registry.ts', mode: 'file' },
	{ type: 'modules-kernel', pattern: 'app/modules/*.ts', mode: 'file' },
	{ type: 'module', pattern: 'app/modules/*/**', capture: ['module'] },
	{ type: 'domain', pattern: 'app/(catalog|cart|customers|orders|payments|shipping|uploads|newsletter|store|health|email)/**', capture: ['domain'] },
	{ type: 'auth', pattern: 'app/auth/**' },
	{ type: 'security', pattern: 'app/security/**' },
	{ type: 'data', pattern: 'app/data/**' },
	{ type: 'config', pattern: 'app/config/**' },
	// The logger: every server layer writes to it, and it imports nothing app-level.
	{ type: 'log', pattern: 'app/log/**' },
	{ type: 'ui', pattern: 'app/ui/**' },
	{ type: 'errors', pattern: 'app/errors.server.ts', mode: 'file' },
]

const below = {
	door: ['module-registry', 'modules-kernel', 'module', 'domain', 'audit', 'auth', 'security', 'data', 'config', 'errors', 'rules', 'log'],
	domain: ['audit', 'auth', 'security', 'data', 'config', 'errors', 'rules', 'log'],
	audit: ['data', 'config', 'errors', 'rules', 'log'],
	auth: ['security', 'data', 'config', 'errors', 'rules', 'log'],
	security: ['data', 'config', 'errors', 'rules', 'log'],
	data: ['config', 'rules', 'log'],
	config: ['rules', 'log'],
	errors: [],
	log: [],
}

/**
 * The only imports from one concern into another, each for a reason the two cannot be
 * separated by: everything else between concerns goes through a parameter or a signal
 * (app/data/signals.server.ts).
 */
const declaredAcross = [
	// Checkout turns the shopper's cart into an Order: it reads and empties that cart in the same transaction.
	['domain', { domain: 'orders' }, ['domain', { domain: 'cart' }]],
	// Checkout prices the Order's shipping and tax from the Store's tables in its own transaction.
	['domain', { domain: 'orders' }, ['domain', { domain: 'shipping' }]],
	// A provider event moves an Order through the Order's own payment rules, in the event's transaction.
	['domain', { domain: 'payments' }, ['domain', { domain: 'orders' }]],
	// An Order's change and the mail it causes commit together (the outbox), as does a subscription and its confirmation.
	['domain', { domain: 'orders' }, ['domain', { domain: 'email' }]],
	['domain', { domain: 'newsletter' }, ['domain', { domain: 'email' }]],
	// The newsletter's list is a Module's table: the newsletter concern is the layer above it [R31].
	['domain', { domain: 'newsletter' }, 'modules-kernel'],
	['domain', { domain: 'newsletter' }, ['module', { module: 'newsletter' }]],
	// Readiness asks the object store the uploads are written to.
	['domain', { domain: 'health' }, ['domain', { domain: 'uploads' }]],
]

const unverifiedScope = {
	group: ['**/data/scope'],
	importNames: ['unverifiedScope'],
	message: 'Build a StoreScope with viewerScope(db, viewer) or runtimeScope(db) (app/data/scope.ts) [R4].',
}

export default tseslint.config(
	{
		ignores: [
			'build/**',
			'scripts/bench/baseline/build/**',
			'scripts/bench/baseline/.react-router/**',
			'app/data/generated/**',
			'.react-router/**',
			'node_modules/**',
			'tests/.tmp/**',
			'test-results/**',
			'public/**',
		],
	},
	...tseslint.configs.recommended,
	{
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
		},
	},
	{
		// CommonJS helpers (a stand-in server started with node) load packages with require().
		files: ['**/*.cjs'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['app/**/*.{ts,tsx}'],
		ignores: ['app/**/*.test.ts'],
		plugins: { boundaries },
		settings: {
			'boundaries/elements': elements,
			'boundaries/include': ['app/**/*'],
			'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
		},
		rules: {
			'boundaries/element-types': [
				'error',
				{
					default: 'disallow',
					message: '${file.type} must not import ${dependency.type}: the layers point one way (docs/architecture.md)',
					rules: [
						{ from: 'app-shell', allow: ['routes', 'door', 'domain', 'audit', 'auth', 'security', 'data', 'config', 'ui', 'errors', 'rules', 'log'] },
						// Routes read the root loader's type (the Store's currency and locale) for their props.
						{
							from: 'routes',
							allow: [
								'routes',
								'app-shell',
								'door',
								'diagnostics',
								'module',
								'domain',
								'audit',
								'auth',
								'security',
								'data',
								'config',
								'ui',
								'errors',
								'rules',
								'log',
							],
						},
						{ from: 'door', allow: [...below.door, 'diagnostics'] },
						{ from: 'diagnostics', allow: ['diagnostics', ...below.door] },
						// A concern imports its own folder, never another concern's (but for the declared few).
						{ from: 'domain', allow: [...below.domain, ['domain', { domain: '${from.domain}' }]] },
						...declaredAcross.map(([type, from, allowed]) => ({ from: [[type, from]], allow: [allowed] })),
						// Module code reaches data only through the kernel's ModuleDataService: never Prisma, the
						// data layer or another Module's files [R31].
						{ from: 'module', allow: ['modules-kernel', 'errors', ['module', { module: '${from.module}' }]] },
						{ from: 'modules-kernel', allow: ['modules-kernel', 'module-registry', 'data', 'config', 'errors', 'rules', 'log'] },
						{ from: 'module-registry', allow: ['modules-kernel', 'module'] },
						{ from: 'audit', allow: ['audit', ...below.audit] },
						{ from: 'rules', allow: [] },
						{ from: 'auth', allow: ['auth', ...below.auth] },
						{ from: 'security', allow: ['security', ...below.security] },
						{ from: 'data', allow: ['data', ...below.data] },
						{ from: 'config', allow: ['config', ...below.config] },
						// Components format what the root loader gives (its type only) and show the rules' labels.
						{ from: 'ui', allow: ['ui', 'config', 'rules', 'app-shell'] },
						{ from: 'errors', allow: below.errors },
						{ from: 'log', allow: ['log', ...below.log] },
					],
				},
			],
		},
	},
	{
		// A Store scope comes from a session's viewer or the runtime's own Store, never from an id
		// the code was handed: the unchecked constructor is for tests and command-line tools.
		files: ['app/**/*.{ts,tsx}'],
		ignores: ['app/**/*.test.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: [unverifiedScope] }] },
	},
	{
		// better-auth's main entry and its plugins index load Kysely and every plugin: 5 MB more live
		// heap for every full collection to mark (docs/decisions/061). Types may come from anywhere.
		files: ['app/**/*.{ts,tsx}', 'server/**/*.ts', 'scripts/**/*.ts'],
		rules: {
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					paths: [
						{ name: 'better-auth', allowTypeImports: true, message: "Import betterAuth from 'better-auth/minimal' (the store's database is Prisma's)." },
						{ name: 'better-auth/plugins', allowTypeImports: true, message: "Import each plugin from its own path ('better-auth/plugins/admin', …)." },
					],
				},
			],
		},
	},
	{
		// Module code never names Prisma or the database client, not even as a package [R31].
		files: ['app/modules/*/**/*.{ts,tsx}'],
		ignores: ['app/**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						unverifiedScope,
						{
							group: ['@prisma/*', 'pg', 'better-sqlite3', '**/data/**', '**/generated/**'],
							message: 'Module code reaches its rows through ModuleDataService (app/modules/data-service.server.ts) [R31].',
						},
					],
				},
			],
		},
	},
	{
		// Routes reach data only through the door: never the Prisma client itself.
		files: ['app/routes/**/*.{ts,tsx}'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						unverifiedScope,
						{
							group: ['**/data/db.server', '**/data/generated/**'],
							message: 'Routes reach data through repositoriesFor(viewer) (app/repositories.server.ts).',
						},
					],
				},
			],
		},
	},
)
