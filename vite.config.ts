import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig(({ mode }) => ({
	// The React Router plugin must not run under vitest (it expects a full app build).
	plugins: mode === 'test' ? [] : [reactRouter()],
	build: {
		sourcemap: false,
		rollupOptions: {
			// Resource routes (uploads, events, health, media…) have no component, so their client
			// chunk is empty by design: a warning at every set-up that nobody can act on.
			onwarn(warning, warn) {
				if (warning.code === 'EMPTY_BUNDLE') return
				warn(warning)
			},
		},
	},
	server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
	test: {
		include: ['app/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts'],
		globalSetup: ['tests/setup/databases.global.ts'],
		setupFiles: ['tests/setup/fail-on-error-log.ts'],
		testTimeout: 20_000,
		hookTimeout: 60_000,
		// Most tests wait on a database, not the CPU: three workers even on two cores (each has its
		// own SQLite file, tests/helpers/databases.ts). Vitest's default there is one.
		maxWorkers: 3,
		// A worker runs its files in one module registry instead of loading every module again for
		// each file: loading was half the suite's CPU (vitest's "import" 100 s; the run took 205 s
		// wall on two cores with a registry per file, 110-128 s without). Tests build their own
		// clients and Stores (tests/helpers/databases.ts); the one file that points process-wide
		// singletons at a database loads its own copies (app/auth/guards.server.test.ts,
		// vi.resetModules).
		isolate: false,
	},
}))
