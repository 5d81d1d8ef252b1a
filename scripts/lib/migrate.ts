import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { PROJECT_ROOT as root } from '../../app/config/project-root.server'

// From the project's folder, not this file's: init also runs as a bundle in build/.
const prismaBin = path.join(root, 'node_modules/prisma/build/index.js')

/**
 * Applies the migrations of DATABASE_URL's provider (prisma.config.ts picks the
 * schema and its migrations folder). Throws with Prisma's output on failure.
 */
export function migrateDatabase(databaseUrl: string, { quiet = false } = {}) {
	const result = spawnSync(process.execPath, [prismaBin, 'migrate', 'deploy'], {
		cwd: root,
		env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
		encoding: 'utf8',
	})
	if (result.status !== 0) {
		throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`)
	}
	if (!quiet) process.stdout.write(result.stdout)
}
