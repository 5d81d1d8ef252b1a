import { defineConfig } from 'vitest/config'

/**
 * The scale suite (`npm run test:scale`): two production store processes on one PostgreSQL,
 * Redis and bucket behind tests/scale/balancer.ts, under mixed traffic, one of them SIGKILLed.
 * `SCALE_SECONDS` sets how long the traffic runs; the timeout follows it.
 */
const seconds = Number(process.env.SCALE_SECONDS ?? 180)

export default defineConfig({
	test: {
		root: new URL('../..', import.meta.url).pathname,
		include: ['tests/scale/**/*.test.ts'],
		setupFiles: ['tests/setup/fail-on-error-log.ts'],
		fileParallelism: false,
		testTimeout: (seconds + 120) * 1000,
		hookTimeout: 240_000,
	},
})
