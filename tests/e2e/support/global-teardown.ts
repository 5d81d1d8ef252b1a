import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { dropTestDatabase } from '../../helpers/postgres.ts'

/** Removes the run's temp database dir, PostgreSQL database and template (made once in tests/playwright.config.ts). */
export default async function globalTeardown() {
	if (process.env.E2E_STRIPE_PID) {
		try {
			process.kill(Number(process.env.E2E_STRIPE_PID), 'SIGTERM')
		} catch {
			// Already gone.
		}
	}
	if (process.env.E2E_PG_DATABASE) await dropTestDatabase(process.env.E2E_PG_DATABASE)
	if (process.env.E2E_PG_TEMPLATE) await dropTestDatabase(process.env.E2E_PG_TEMPLATE)
	const dir = process.env.E2E_DB_DIR
	if (dir && path.resolve(dir).startsWith(path.resolve(tmpdir()) + path.sep)) {
		rmSync(dir, { recursive: true, force: true })
	}
}
