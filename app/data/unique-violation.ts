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
