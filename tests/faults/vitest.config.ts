import { defineConfig } from 'vitest/config'

/**
 * The fault suite (`npm run test:faults`): the production build, over HTTP, while Redis,
 * PostgreSQL, the server process or the upload disk fail. One file at a time: each scenario
 * owns its processes and its timing must not compete with another's.
 */
export default defineConfig({
	test: {
		root: new URL('../..', import.meta.url).pathname,
		include: ['tests/faults/**/*.test.ts'],
		setupFiles: ['tests/setup/fail-on-error-log.ts'],
		fileParallelism: false,
		testTimeout: 180_000,
		hookTimeout: 120_000,
	},
})
