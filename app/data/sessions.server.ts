import type { Db } from './db.server'
import type { UserViewer } from './viewer'

/**
 * The signed-in user's own sessions [R26] (ASVS 7.4): listed with device, address and
 * last activity; ended one at a time or all but this one. The owner is the session's user and
 * Store: a session id of anyone else matches nothing.
 */
export function sessionsRepository(db: Db, viewer: UserViewer) {
	const own = { userId: viewer.userId, storeId: viewer.storeId }
	return {
		async list() {
			const rows = await db.session.findMany({
				where: { ...own, expiresAt: { gt: new Date() } },
				select: { id: true, userAgent: true, ipAddress: true, createdAt: true, updatedAt: true },
				orderBy: { updatedAt: 'desc' },
				take: 100,
			})
			return rows.map((row) => ({
				id: row.id,
				device: describeDevice(row.userAgent),
				address: row.ipAddress ?? 'unknown',
				signedInAt: row.createdAt.toISOString(),
				lastSeenAt: row.updatedAt.toISOString(),
				current: row.id === viewer.sessionId,
			}))
		},

		/** Ends one of the user's other sessions; false when there is no such session of theirs. */
		async revoke(sessionId: string) {
			if (sessionId === viewer.sessionId) return false
			const { count } = await db.session.deleteMany({ where: { ...own, id: sessionId } })
			return count === 1
		},

		/** Ends every session of the user except this one. */
		async revokeOthers() {
			const { count } = await db.session.deleteMany({
				where: { ...own, ...(viewer.sessionId ? { id: { not: viewer.sessionId } } : {}) },
			})
			return count
		},

		/** Marks this session as seen now, at most once every few minutes (the list's "last seen"). */
		async touch(everyMs = 5 * 60_000) {
			if (!viewer.sessionId) return
			await db.session.updateMany({
				where: { ...own, id: viewer.sessionId, updatedAt: { lt: new Date(Date.now() - everyMs) } },
				data: { updatedAt: new Date() },
			})
		},
	}
}

/** A short, human description of a User-Agent ("Chrome on Linux"); never the raw string's details. */
export function describeDevice(userAgent: string | null | undefined): string {
	if (!userAgent) return 'Unknown device'
	const browser = /Edg\//.test(userAgent)
		? 'Edge'
		: /Firefox\//.test(userAgent)
			? 'Firefox'
			: /Chrome\/|Chromium\//.test(userAgent)
				? 'Chrome'
				: /Safari\//.test(userAgent)
					? 'Safari'
					: /curl|node|undici|Playwright|python/i.test(userAgent)
						? 'A program'
						: 'A browser'
	const os = /Android/.test(userAgent)
		? 'Android'
		: /iPhone|iPad|iOS/.test(userAgent)
			? 'iOS'
			: /Windows/.test(userAgent)
				? 'Windows'
				: /Mac OS X|Macintosh/.test(userAgent)
					? 'macOS'
					: /Linux|X11/.test(userAgent)
						? 'Linux'
						: null
	return os ? `${browser} on ${os}` : browser
}
