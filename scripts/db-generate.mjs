/**
 * `npm run db:generate` (and `npm install`, through postinstall): writes the Prisma client of
 * each engine into app/data/generated/<engine> with Prisma 7's generator, for Prisma 7's client
 * runtime (docs/decisions/049). Migrations stay on the Prisma 6.19 CLI, whose WebAssembly schema
 * engine works offline (docs/decisions/002); this script never touches a database.
 *
 * Two things Prisma 7's CLI needs that the schema files cannot give it:
 * - a datasource without `url` (Prisma 7 refuses it; Prisma 6.19's migrate requires it), so each
 *   schema is copied without that line into a temporary folder, its output path made absolute;
 * - no download at start: the CLI fetches its native schema engine before any command, even
 *   `generate`, which never runs it. PRISMA_SCHEMA_ENGINE_BINARY names a placeholder file instead.
 * The query compiler is its "small" build: the "fast" one held 34 MB more from start (182 vs 148 MB
 * RSS) for no difference measured, since the plan cache compiles each query shape once.
 * Plain Node (no TypeScript loader): postinstall runs before anything else is ready.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const cli = join(dirname(createRequire(import.meta.url).resolve('prisma-generate/package.json')), 'build', 'index.js')
const work = mkdtempSync(join(tmpdir(), 'store-prisma-generate-'))
try {
	const placeholderEngine = join(work, 'schema-engine-not-used')
	writeFileSync(placeholderEngine, '')
	for (const engine of ['sqlite', 'postgresql']) {
		const source = join(root, 'prisma', engine, 'schema.prisma')
		const schema = readFileSync(source, 'utf8')
			.replace(/^\s*url\s*=\s*env\("DATABASE_URL"\)\s*$/m, '')
			.replace(/^(\s*output\s*=\s*)"([^"]+)"/m, (_line, key, output) => `${key}${JSON.stringify(resolve(dirname(source), output))}`)
			.replace(/^(\s*engineType\s*=.*)$/m, '$1\n  compilerBuild = "small"')
		if (/^\s*url\s*=/m.test(schema)) throw new Error(`${source}: a datasource url that is not env("DATABASE_URL")`)
		const dir = join(work, engine)
		mkdirSync(dir)
		writeFileSync(join(dir, 'schema.prisma'), schema)
		// Run from the temporary folder: the project's prisma.config.ts is the 6.19 CLI's.
		const run = spawnSync(process.execPath, [cli, 'generate', '--schema', join(dir, 'schema.prisma')], {
			cwd: dir,
			stdio: ['ignore', 'inherit', 'inherit'],
			env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: placeholderEngine, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
		})
		if (run.status !== 0) {
			console.error(`[db:generate] prisma generate failed for ${engine} (exit ${run.status ?? run.signal})`)
			process.exit(1)
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true })
}
