/**
 * Whether a Prisma error is a unique-constraint violation, optionally on `field`: the way a
 * racing insert learns another writer got there first, on both engines. A model query reports
 * it as P2002; a raw statement (the Module data service) as P2010, with the driver adapter's
 * own kind of error. The field is found in the error's target or its constraint details.
 */
export function isUniqueViolation(error: unknown, field?: string) {
	const e = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } }; message?: string } | null
	const unique = e?.code === 'P2002' || (e?.code === 'P2010' && e.meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation')
	if (!unique) return false
	if (!field) return true
	return (JSON.stringify(e.meta ?? {}) + (e.message ?? '')).includes(field)
}

/**
 * An upsert another process may run at the same moment (two instances starting together):
 * Prisma reads, then inserts, so both can find nothing and one insert fails on the unique key.
 * The row exists by then, so the same upsert asked once more finds it.
 */
export async function upsertRacing<T>(upsert: () => Promise<T>): Promise<T> {
	try {
		return await upsert()
	} catch (error) {
		if (!isUniqueViolation(error)) throw error
		return upsert()
	}
}
