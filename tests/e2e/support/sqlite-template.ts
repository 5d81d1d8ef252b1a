/**
 * A store's fresh SQLite database, as a copy of the run's migrated template
 * (tests/playwright.config.ts makes it once, as it does PostgreSQL's), so each store's init
 * finds every migration applied and skips Prisma's CLI. Without a template (a spec file run
 * outside that config) the file is left to init to create and migrate.
 */
import { copyFileSync, existsSync } from 'node:fs'

export function sqliteFromTemplate(file: string) {
	const template = process.env.E2E_SQLITE_TEMPLATE
	if (template && existsSync(template)) copyFileSync(template, file)
	return `file:${file}`
}
