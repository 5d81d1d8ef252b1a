import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import routerConfig from '../react-router.config'
import viteConfig from '../vite.config'

/** What `npm run setup` prints should need no action from the owner: these warnings never do. */
describe('a quiet build', () => {
	it('sets every React Router future flag the build would warn about', () => {
		const vitePlugin = readFileSync(createRequire(import.meta.url).resolve('@react-router/dev/vite'), 'utf8')
		const warned = [...vitePlugin.matchAll(/future\.(v\d+_\w+) === void 0/g)].map((match) => match[1]!)
		expect(warned.length).toBeGreaterThan(0)
		const future = (routerConfig.future ?? {}) as Record<string, unknown>
		expect(warned.filter((flag) => typeof future[flag] !== 'boolean')).toEqual([])
	})

	it('drops only the empty-chunk warning of resource routes, passing every other warning on', () => {
		const config = typeof viteConfig === 'function' ? viteConfig({ mode: 'production', command: 'build' }) : viteConfig
		const onwarn = (config as { build?: { rollupOptions?: { onwarn?: (w: { code?: string; message: string }, warn: (w: unknown) => void) => void } } }).build
			?.rollupOptions?.onwarn
		expect(onwarn).toBeTypeOf('function')
		const passed: unknown[] = []
		onwarn!({ code: 'EMPTY_BUNDLE', message: 'Generated an empty chunk: "media".' }, (w) => passed.push(w))
		onwarn!({ code: 'CIRCULAR_DEPENDENCY', message: 'cycle' }, (w) => passed.push(w))
		expect(passed).toEqual([{ code: 'CIRCULAR_DEPENDENCY', message: 'cycle' }])
	})
})
