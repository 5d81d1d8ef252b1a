/**
 * Who is asking, as established from the session (app/auth/guards.server.ts).
 * Repositories take their Store scope and owner from here and nowhere else.
 */
export type Role = 'admin' | 'user'

export type GuestViewer = {
	kind: 'guest'
	storeId: string
	guestId: string
	/**
	 * The guestId was minted by this very GET or HEAD request (a first visit): nothing can be
	 * stored under it yet, so its cart is known to be empty without asking the database.
	 */
	fresh?: true
}

export type UserViewer = {
	kind: 'user'
	storeId: string
	userId: string
	role: Role
	email: string
	name: string
	/** This browser's verified guestId cookie (cart merge, proof for order claiming). */
	guestId?: string
	/** The session this request rode on (/account/security marks it "this device"). */
	sessionId?: string
}

export type AdminViewer = UserViewer & { role: 'admin' }

export type Viewer = GuestViewer | UserViewer

export function isAdmin(viewer: Viewer): viewer is AdminViewer {
	return viewer.kind === 'user' && viewer.role === 'admin'
}
