import { getConfig } from '../config/env.server'
import type { Db } from '../data/db.server'
import { plainMail } from './render'
import type { Renderer } from './worker.server'

/** The password-reset mail: a single-use link to /reset-password, valid for 30 minutes. */
export function resetMailRenderer(db: Db): Renderer {
	return async ({ storeId, subjectId: token }) => {
		const store = await db.store.findUnique({ where: { id: storeId }, select: { name: true } })
		if (!store) return null
		return plainMail({
			subject: `Reset your password at ${store.name}`,
			paragraphs: [
				'Someone, hopefully you, asked to reset the password of the account with this address.',
				'The link works once, for 30 minutes. Setting a new password signs the account out everywhere. If it was not you, ignore this mail: nothing changes.',
			],
			link: { href: `${getConfig().appUrl}/reset-password?${new URLSearchParams({ token })}`, label: 'Choose a new password' },
		})
	}
}
