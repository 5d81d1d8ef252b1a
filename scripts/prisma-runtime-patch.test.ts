import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { migrateDatabase } from './lib/migrate'
// @ts-expect-error plain Node module without types: postinstall runs it before TypeScript is ready
import { patchInstalledRuntime, patchRuntimeSource, runtimeFiles } from './prisma-runtime-patch.mjs'

type Patch = { state: 'patched' | 'already' | 'unknown'; source: string }
const patch = patchRuntimeSource as (source: string) => Patch

/** The parameter graph's code as Prisma 7.10.0 ships it, cut down to the parts the patch rewrites. */
const SHIPPED = [
	'#u(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o={};for(let s=0;s<i;s++){let a=this.#i(),u=this.#a(),S={flags:this.#s()};o[a]=S}r.push({edges:o})}return r}',
	'#l(t){let r=[];for(let n=0;n<t;n++){let i=this.#i(),o={};for(let s=0;s<i;s++){let a=this.#i(),u=this.#o(),P={};o[a]=P}r.push({edges:o})}return r}',
	'inputEdge(t,r){let n=this.#e.inputNodes[t.id];if(!n)return;let i=this.#t.get(r);if(i===void 0)return;let o=n.edges[i];if(o)return{flags:o.flags}}',
	'outputEdge(t,r){let n=this.#e.outputNodes[t.id];if(!n)return;let i=this.#t.get(r);if(i===void 0)return;let o=n.edges[i];if(o)return{argsNodeId:o.argsNodeId}}',
].join('')

describe("Prisma's parameter graph keeps its edges in Maps (memory, docs/decisions/070)", () => {
	it('rewrites the shipped code: edges built in a Map and read with get', () => {
		const { state, source } = patch(SHIPPED)
		expect(state).toBe('patched')
		expect(source.match(/o=new Map;/g)).toHaveLength(2)
		expect(source).toContain('o.set(a,S)}r.push({edges:o})')
		expect(source).toContain('o.set(a,P)}r.push({edges:o})')
		expect(source.match(/n\.edges\.get\(i\)/g)).toHaveLength(2)
		expect(source).not.toContain('n.edges[i]')
		expect(source).not.toMatch(/o\[a\]=/)
	})

	it('leaves patched code as it is', () => {
		const once = patch(SHIPPED).source
		expect(patch(once)).toEqual({ state: 'already', source: once })
	})

	it('leaves code it does not recognize unchanged, half-matching included', () => {
		for (const other of [
			SHIPPED.replace('o[a]=P}', 'o[a]=Q}'),
			SHIPPED + 'let o=n.edges[i];',
			SHIPPED.replace(/let o=n\.edges\[i\];/, 'let o=n.edges.get(i);'),
			'var x=1',
		]) {
			expect(patch(other)).toEqual({ state: 'unknown', source: other })
		}
	})

	it('the installed runtime is patched, both its CommonJS and its ES module build', () => {
		const { files } = runtimeFiles() as { files: string[] }
		expect(files).toHaveLength(2)
		for (const file of files) expect(patch(readFileSync(file, 'utf8')).state, file).toBe('already')
		// Running it again (a second postinstall) changes nothing and says nothing.
		const lines: string[] = []
		expect(patchInstalledRuntime(process.cwd(), (line: string) => lines.push(line))).toEqual(['already', 'already'])
		expect(lines).toEqual([])
	})

	describe('a query shape keeps one compiled plan whatever its values (the graph still answers)', () => {
		const dir = mkdtempSync(join(tmpdir(), 'store-param-graph-'))
		afterAll(() => rmSync(dir, { recursive: true, force: true }))

		it('the second lookup of a shape, with other values, is a plan cache hit', () => {
			const url = `file:${join(dir, 'store.db')}`
			migrateDatabase(url, { quiet: true })
			// A fresh process: Prisma reads DEBUG when its runtime loads, and a test worker shares
			// the runtime between test files. Were the graph unreadable, each value would make a new plan.
			const child = spawnSync(
				process.execPath,
				[
					'--import',
					'tsx',
					'--input-type=module',
					'-e',
					`
const { createDb } = await import('./app/data/db.server.ts')
const db = createDb(${JSON.stringify(url)})
await db.store.findFirst({ where: { handle: 'first' }, select: { id: true } })
console.warn('--- second')
await db.store.findFirst({ where: { handle: 'second' }, select: { id: true } })
console.warn('--- done')
await db.$disconnect()
`,
				],
				{ encoding: 'utf8', env: { ...process.env, DEBUG: 'prisma:client:clientEngine', DEBUG_COLORS: 'false' } },
			)
			expect(child.status, child.stderr).toBe(0)
			const [first = '', rest = ''] = child.stderr.split('--- second')
			const second = rest.split('--- done')[0] ?? ''
			expect(first).toContain('query plan cache miss')
			expect(second).toContain('query plan cache hit')
			expect(second).not.toContain('query plan cache miss')
		})
	})
})
