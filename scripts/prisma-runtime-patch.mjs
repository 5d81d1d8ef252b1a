/**
 * Run by postinstall after `db:generate` (and alone: `node scripts/prisma-runtime-patch.mjs`).
 * Keeps the edges of Prisma 7.10's parameter graph in Maps (docs/decisions/070).
 *
 * Prisma's client runtime rebuilds its parameter graph (which fields of which query take a
 * value, used to keep one compiled plan per query shape) from the generated client when the
 * client starts, and keeps it for the life of the process. Each node's edges were a plain
 * object keyed by an index into the schema's 612 field names, so V8 gave most of them an array
 * as long as the largest index: 5.2 MB of mostly empty slots in 1,546 arrays, a ninth of the
 * store's live heap, which every full collection marked again. In a Map each node holds only
 * its edges. The graph is read in two places, both `n.edges[i]`; nothing else touches it.
 *
 * Plain Node, no dependencies: postinstall runs before anything else is ready. Each rewrite
 * must match exactly as often as expected, or the file is left as it is and a line says so
 * (an upgraded Prisma that changed this code installs and runs as Prisma wrote it);
 * scripts/prisma-runtime-patch.test.ts then fails until this file is brought up to date.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The runtime version these rewrites were written against. */
export const PRISMA_RUNTIME_VERSION = '7.10.0'

/** Each rewrite, with how many times it must match in each of client.js and client.mjs. */
const REWRITES = [
	// Both node kinds (input and output) start their edges as an empty object.
	{ from: ',o={};for(let s=0;s<i;s++){let a=this.#i(),', to: ',o=new Map;for(let s=0;s<i;s++){let a=this.#i(),', times: 2 },
	{ from: 'o[a]=S}r.push({edges:o})', to: 'o.set(a,S)}r.push({edges:o})', times: 1 },
	{ from: 'o[a]=P}r.push({edges:o})', to: 'o.set(a,P)}r.push({edges:o})', times: 1 },
	// The two readers: an input edge and an output edge, by field-name index.
	{ from: 'let o=n.edges[i];', to: 'let o=n.edges.get(i);', times: 2 },
]

const count = (text, part) => text.split(part).length - 1

/**
 * The runtime's source with the graph's edges in Maps. `patched` when every rewrite matched
 * as expected, `already` when the source had them already, `unknown` (source unchanged) when
 * it is neither: another version of the code.
 */
export function patchRuntimeSource(source) {
	if (REWRITES.every(({ from, to, times }) => count(source, from) === 0 && count(source, to) === times)) {
		return { state: 'already', source }
	}
	if (!REWRITES.every(({ from, to, times }) => count(source, from) === times && count(source, to) === 0)) {
		return { state: 'unknown', source }
	}
	return { state: 'patched', source: REWRITES.reduce((text, { from, to }) => text.split(from).join(to), source) }
}

/** The runtime's two builds (CommonJS and ES module) in the installed @prisma/client. */
export function runtimeFiles(root = process.cwd()) {
	const require = createRequire(join(root, 'package.json'))
	const dir = dirname(require.resolve('@prisma/client/package.json'))
	const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
	return { version, files: ['client.js', 'client.mjs'].map((name) => join(dir, 'runtime', name)) }
}

/** Rewrites the installed runtime in place; one line per file that was not already done. */
export function patchInstalledRuntime(root = process.cwd(), log = console.log) {
	const { version, files } = runtimeFiles(root)
	return files.map((file) => {
		const { state, source } = patchRuntimeSource(readFileSync(file, 'utf8'))
		if (state === 'patched') {
			writeFileSync(file, source)
			log(`[prisma-runtime-patch] ${relative(root, file)}: parameter graph edges kept in Maps`)
		}
		if (state === 'unknown') {
			log(
				`[prisma-runtime-patch] ${relative(root, file)} (@prisma/client ${version}, written for ${PRISMA_RUNTIME_VERSION}): ` +
					'its parameter graph code is not the expected one; left as it is (docs/decisions/070)',
			)
		}
		return state
	})
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) patchInstalledRuntime()
