import { data, redirect, type RouterContextProvider } from 'react-router'
import type { AdminViewer, UserViewer, Viewer } from '../data/viewer'
import { isAdmin } from '../data/viewer'
import { signInUrlFor } from './safe-redirect'
import { viewerFrom } from './viewer.server'

export type GuardArgs = { request: Request; context: Readonly<RouterContextProvider> }

/** The viewer: a signed-in user, or a guest. Never throws for a guest. */
export function getViewer({ context }: GuardArgs): Promise<Viewer> {
	return viewerFrom(context)
}

/** A signed-in user, or a redirect to sign-in that comes back here afterwards. */
export async function requireUser(args: GuardArgs): Promise<UserViewer> {
	const viewer = await getViewer(args)
	if (viewer.kind !== 'user') throw redirect(signInUrlFor(args.request))
	return viewer
}

/**
 * [R5] a Store Admin session, or a redirect to sign-in (anonymous),
 * or 403 (signed in without the `admin` role).
 */
export async function requireAdmin(args: GuardArgs): Promise<AdminViewer> {
	const viewer = await requireUser(args)
	if (!isAdmin(viewer)) {
		throw data({ message: 'Store Admin is for administrators only.' }, { status: 403, statusText: 'Forbidden' })
	}
	return viewer
}

/** Signed-in users have no business on sign-in and sign-up pages. */
/** A signed-in visitor goes to `to`, or, without one, to their home: Store Admin for admins, else /account. */
export async function requireGuest(args: GuardArgs, to = '') {
	const viewer = await getViewer(args)
	if (viewer.kind === 'user') throw redirect(to || (isAdmin(viewer) ? '/admin' : '/account'))
	return viewer
}
