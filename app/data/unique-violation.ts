/**
 * Whether a Prisma error is a unique-constraint violation (P2002), optionally on `field`:
 * the way a racing insert learns another writer got there first, on both engines. The field
 * is found in the error's target or, through a driver adapter, its constraint details.
 */
export function isUniqueViolation(error: unknown, field?: string) {
	const e = error as { code?: string; meta?: unknown; message?: string } | null
	if (e?.code !== 'P2002') return false
	if (!field) return true
	return (JSON.stringify(e.meta ?? {}) + (e.message ?? '')).includes(field)
}
