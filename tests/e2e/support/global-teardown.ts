import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** Removes the run's temp database dir (made once in tests/playwright.config.ts). */
export default function globalTeardown() {
	const dir = process.env.E2E_DB_DIR
	if (dir && path.resolve(dir).startsWith(path.resolve(tmpdir()) + path.sep)) {
		rmSync(dir, { recursive: true, force: true })
	}
}
