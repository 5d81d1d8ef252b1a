import { spawnSync } from 'node:child_process'
import { cpSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { prismaCli } from '../../server/migrate'

/**
 * Migrates the database at `url` only up to (not including) the migration `before`, from a copy of
 * the migrations folder in `root` without the later ones: the state a store was in before it,
 * for tests that then apply the rest to data of that time.
 */
export function migrateUpTo(url: string, engine: string, root: string, before: string) {
	cpSync('prisma', root, { recursive: true })
	for (const name of readdirSync(join(root, engine, 'migrations')))
		if (/^\d{14}_/.test(name) && name >= before) rmSync(join(root, engine, 'migrations', name), { recursive: true })
	const result = spawnSync(process.execPath, [...prismaCli, 'migrate', 'deploy', '--schema', join(root, engine, 'schema.prisma')], {
		env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
		encoding: 'utf8',
	})
	if (result.status !== 0) throw new Error(`${result.stdout}\n${result.stderr}`)
}
