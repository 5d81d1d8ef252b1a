// Lint: typescript-eslint's recommended rules, and the layers of docs/architecture.md as an
// import-boundary rule, so an import, a re-export or a dynamic import that points up or across
// fails `npm run lint` (docs/decisions/035-layers-and-lint.md). The layers and their exceptions
// are exported too: `npm run docs:architecture` writes the page's layer section from them, and
// scripts/architecture.test.ts fails when the page and this file disagree.
import boundaries from 'eslint-plugin-boundaries'
import tseslint from 'typescript-eslint'

/**
 * Every file of the app, the server and the commands belongs to one element (a file of none
 * fails lint: boundaries/no-unknown-files). `what` is the page's one-line description. A domain
 * is one commerce concern's folder. `rules` are pure tables and checks (no app imports) that
 * every layer may read.
 */
export const elements = [
	{
		type: 'baseline',
		pattern: 'scripts/bench/baseline/**',
		what: "the bench's bare React Router app: the honest baseline, which imports nothing of the store",
	},
	{ type: 'scripts', pattern: 'scripts/**', what: 'commands people run (setup, init, diagnose, bench, tests), each with --help' },
	{ type: 'server', pattern: 'server/**', what: 'the HTTP server (Express in front of React Router) and what it and init stand on at start' },
	{ type: 'app-shell', pattern: ['app/root.tsx', 'app/entry.server.tsx', 'app/routes.ts'], what: 'the route table, the root layout and the server entry' },
	{ type: 'routes', pattern: 'app/routes/**', what: 'thin route modules: parse input, call a guard, call the door, render' },
	{
		type: 'door',
		pattern: 'app/repositories.server.ts',
		what: 'the one door to data: repositoriesFor(viewer), adminRepositoriesFor(admin), runtimeRepositories()',
	},
	{ type: 'diagnostics', pattern: 'app/diagnostics/**', what: "the pre-exposure checklist: reads every concern's configuration, writes nothing" },
	{ type: 'module-registry', pattern: 'app/modules/registry.ts', what: 'the list of Modules' },
	{ type: 'modules-kernel', pattern: 'app/modules/*.ts', what: "the Modules' kernel: the compiler, ModuleDataService, the core's published views" },
	{ type: 'module', pattern: 'app/modules/*/**', capture: ['module'], what: 'one Module (reviews, the newsletter list): its definition and repository' },
	{
		type: 'rules',
		pattern: 'app/rules/**',
		what: 'pure tables and checks every layer may read',
	},
	{
		type: 'domain',
		pattern: 'app/(catalog|cart|customers|orders|payments|shipping|uploads|newsletter|store|health|email|discounts|exports)/**',
		capture: ['domain'],
		what: 'one commerce concern each: its repository, rules, state table and tests',
	},
	{ type: 'audit', pattern: 'app/audit/**', what: 'the activity log, written by every concern in its change’s transaction' },
	{ type: 'auth', pattern: 'app/auth/**', what: 'better-auth, guards, SSO, two-factor; sign-in hooks are given from above' },
	{ type: 'security', pattern: 'app/security/**', what: 'headers, cross-site check, rate limits, form parsing, sealed secrets' },
	{ type: 'data', pattern: 'app/data/**', what: 'the Prisma client and driver adapters, the viewer type, Store scope, caches and signals' },
	{ type: 'config', pattern: 'app/config/**', what: 'environment parsing (zod), engine choice, secret policy, the capability registry' },
	{ type: 'log', pattern: 'app/log/**', what: 'the logger and the request log: every server layer writes to it' },
	{ type: 'ui', pattern: 'app/ui/**', what: 'components and formatting' },
	{ type: 'errors', pattern: 'app/errors.server.ts', what: 'DomainError, StoreBusyError and the one JSON error shape' },
]

/** What each element may import, besides itself. */
export const allowed = {
	scripts: [
		'scripts',
		'server',
		'app-shell',
		'door',
		'diagnostics',
		'module-registry',
		'modules-kernel',
		'module',
		'rules',
		'domain',
		'audit',
		'auth',
		'security',
		'data',
		'config',
		'log',
		'ui',
		'errors',
	],
	baseline: ['baseline'],
	server: ['server', 'domain', 'auth', 'security', 'data', 'config', 'log', 'errors', 'rules'],
	'app-shell': ['app-shell', 'routes', 'door', 'domain', 'audit', 'auth', 'security', 'data', 'config', 'ui', 'errors', 'rules', 'log'],
	// Routes read the root loader's type (the Store's currency and locale) for their props.
	routes: ['routes', 'app-shell', 'door', 'diagnostics', 'module', 'domain', 'audit', 'auth', 'security', 'data', 'config', 'ui', 'errors', 'rules', 'log'],
	door: [
		'door',
		'diagnostics',
		'module-registry',
		'modules-kernel',
		'module',
		'domain',
		'audit',
		'auth',
		'security',
		'data',
		'config',
		'errors',
		'rules',
		'log',
	],
	diagnostics: [
		'diagnostics',
		'module-registry',
		'modules-kernel',
		'module',
		'domain',
		'audit',
		'auth',
		'security',
		'data',
		'config',
		'errors',
		'rules',
		'log',
	],
	'module-registry': ['modules-kernel', 'module'],
	'modules-kernel': ['modules-kernel', 'module-registry', 'data', 'config', 'errors', 'rules', 'log'],
	// Module code reaches data only through the kernel's ModuleDataService: never Prisma, the data
	// layer or another Module's files [R31]. (Its own folder: the policy below.)
	module: ['modules-kernel', 'errors'],
	rules: [],
	// A concern imports its own folder (the policy below), never another concern's but the declared few.
	domain: ['audit', 'auth', 'security', 'data', 'config', 'errors', 'rules', 'log'],
	audit: ['audit', 'data', 'config', 'errors', 'rules', 'log'],
	auth: ['auth', 'security', 'data', 'config', 'errors', 'rules', 'log'],
	security: ['security', 'data', 'config', 'errors', 'rules', 'log'],
	data: ['data', 'config', 'rules', 'log'],
	config: ['config', 'rules', 'log'],
	log: ['log'],
	// Components format what the root loader gives (its type only) and show the rules' labels.
	ui: ['ui', 'config', 'rules', 'app-shell'],
	errors: [],
}

/**
 * The only imports from one concern into another, each for a reason the two cannot be
 * separated by: everything else between concerns goes through a parameter or a signal
 * (app/data/signals.server.ts).
 */
export const declaredAcross = [
	{ from: 'orders', to: 'cart', why: 'checkout turns the shopper’s cart into an Order: it reads and empties that cart in the same transaction' },
	{ from: 'orders', to: 'shipping', why: 'checkout prices the Order’s shipping and tax from the Store’s tables in its own transaction' },
	{ from: 'payments', to: 'orders', why: 'a provider event moves an Order through the Order’s own payment rules, in the event’s transaction' },
	{
		from: 'orders',
		to: 'discounts',
		why: 'checkout counts a code’s use in the Order’s transaction, and a cancel gives it back in its own: the limit holds exactly',
	},
	{ from: 'orders', to: 'email', why: 'an Order’s change and the mail it causes commit together (the outbox)' },
	{ from: 'newsletter', to: 'email', why: 'a subscription and its confirmation mail commit together (the outbox)' },
	{ from: 'newsletter', to: 'module:newsletter', why: 'the newsletter’s list is a Module’s table: the newsletter concern is the layer above it [R31]' },
	{ from: 'health', to: 'uploads', why: 'readiness asks the object store the uploads are written to' },
]

/** `declaredAcross` as the rule's rules. */
function acrossPolicies() {
	return declaredAcross.map(({ from, to }) => ({
		from: [['domain', { domain: from }]],
		allow: to.startsWith('module:') ? ['modules-kernel', ['module', { module: to.slice('module:'.length) }]] : [['domain', { domain: to }]],
	}))
}

const unverifiedScope = {
	group: ['**/data/scope'],
	importNames: ['unverifiedScope'],
	message: 'Build a StoreScope with viewerScope(db, viewer) or runtimeScope(db) (app/data/scope.ts) [R4].',
}

/** The store's own code never reaches into the tests' helpers (they sit outside every layer). */
const fromTests = { group: ['**/tests/**'], message: 'Test helpers are for tests: the app and the server never import them.' }

/** The files the layers govern: the app, the server and the commands, but their tests. */
const governed = ['app/**/*.{ts,tsx}', 'server/**/*.{ts,cjs}', 'scripts/**/*.{ts,tsx,mjs}']
const tests = ['**/*.test.ts', 'scripts/bench/baseline/build/**']

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
		files: governed,
		ignores: tests,
		plugins: { boundaries },
		settings: {
			// Matched from the project's root, so a folder named like one of ours elsewhere is not ours.
			'boundaries/elements': elements.map(({ what: _what, ...element }) => ({ mode: 'full', ...element })),
			'boundaries/include': governed,
			// Imports, re-exports (`export … from`), dynamic imports and require(): every way in.
			'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
			'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'] } },
		},
		rules: {
			// Every file of the app, the server and the commands is in a layer, so a file of no layer
			// cannot be a side door (what is left unknown is React Router's generated route types).
			'boundaries/no-unknown-files': 'error',
			'boundaries/element-types': [
				'error',
				{
					default: 'disallow',
					message: '${file.type} must not import ${dependency.type}: the layers point one way (docs/architecture.md)',
					rules: [
						...Object.entries(allowed).map(([type, targets]) => ({ from: type, allow: targets })),
						{ from: 'domain', allow: [['domain', { domain: '${from.domain}' }]] },
						{ from: 'module', allow: [['module', { module: '${from.module}' }]] },
						...acrossPolicies(),
					],
				},
			],
		},
	},
	{
		// A Store scope comes from a session's viewer or the runtime's own Store, never from an id
		// the code was handed: the unchecked constructor is for tests and command-line tools.
		files: ['app/**/*.{ts,tsx}', 'server/**/*.ts'],
		ignores: ['**/*.test.ts'],
		rules: { 'no-restricted-imports': ['error', { patterns: [unverifiedScope, fromTests] }] },
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
		ignores: ['**/*.test.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						unverifiedScope,
						fromTests,
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
						fromTests,
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
