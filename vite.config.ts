import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig(({ mode }) => ({
	// The React Router plugin must not run under vitest (it expects a full app build).
	plugins: mode === 'test' ? [] : [reactRouter()],
	build: { sourcemap: false },
	server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
	test: {
		include: ['app/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/integration/**/*.test.ts'],
		globalSetup: ['tests/setup/databases.global.ts'],
		setupFiles: ['tests/setup/fail-on-console-error.ts'],
		testTimeout: 20_000,
		hookTimeout: 60_000,
	},
}))
