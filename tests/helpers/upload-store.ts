/**
 * A Store of a test file's own on this run's database, with an admin of it, so that counting
 * its uploads and audit entries is not disturbed by other files uploading at the same time.
 * (Apart from upload-storage.ts, which the e2e specs import: this one needs vitest.)
 */
import type { DatabaseProvider } from '../../app/config/database-url'
import { openTestDatabase, signUpAdmin } from './databases'

export async function openUploadStore(provider: DatabaseProvider, label: string) {
	const t = await openTestDatabase(provider)
	const store = await t.db.store.create({ data: { handle: `${label}-${Date.now()}-${Math.random()}`, name: label }, select: { id: true } })
	const { viewer: admin } = await signUpAdmin({ auth: t.auth, storeId: store.id })
	return { t, admin }
}
