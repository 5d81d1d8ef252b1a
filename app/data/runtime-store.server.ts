import type { Db } from './db.server'
import { upsertRacing } from './unique-violation'

/** One Store Runtime serves one Store [R1]; `npm run init` creates it under this handle. */
export const RUNTIME_STORE_HANDLE = 'main'
export const DEFAULT_STORE_NAME = 'My Store'

export class StoreNotInitialisedError extends Error {
	override name = 'StoreNotInitialisedError'
	constructor() {
		super('This store has not been initialised yet: run `npm run init`.')
	}
}

const storeIds = new WeakMap<Db, Promise<string>>()

/** The id of the Store this runtime serves, looked up once per client. */
export function runtimeStoreId(db: Db): Promise<string> {
	let id = storeIds.get(db)
	if (!id) {
		id = db.store.findUnique({ where: { handle: RUNTIME_STORE_HANDLE }, select: { id: true } }).then((store) => {
			if (!store) throw new StoreNotInitialisedError()
			return store.id
		})
		// A failed lookup (e.g. before init) must not be cached.
		id.catch(() => storeIds.delete(db))
		storeIds.set(db, id)
	}
	return id
}

/** Creates the runtime Store when it does not exist; never renames an existing one. Safe to run from two instances at once [R126]. */
export async function ensureRuntimeStore(db: Db, name = DEFAULT_STORE_NAME) {
	return upsertRacing(() =>
		db.store.upsert({
			where: { handle: RUNTIME_STORE_HANDLE },
			create: { handle: RUNTIME_STORE_HANDLE, name },
			update: {},
			select: { id: true, name: true },
		}),
	)
}
