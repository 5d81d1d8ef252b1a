import { createHmac, timingSafeEqual } from 'node:crypto'
import { getConfig } from '../config/env.server'
import { type Db, transaction } from '../data/db.server'
import { type StoreScope, sameStore } from '../data/scope'
import { moduleData } from '../modules/data-service.server'
import { newsletterModule } from '../modules/newsletter/definition'
import { enqueueMail, sendingConfigured } from '../email/outbox.server'
import { plainMail, type RenderedMail } from '../email/render'
import type { Renderer } from '../email/worker.server'

/** Unsubscribe links stay valid this long (a year of newsletters), then a fresh one is needed. */
export const UNSUBSCRIBE_TOKEN_DAYS = 365
/** A confirmation link works for a week. */
export const CONFIRM_TOKEN_DAYS = 7

export type TokenPurpose = 'unsubscribe' | 'confirm'

/**
 * Newsletter [R50] (subscribe and unsubscribe are Sensitive). Subscribing is idempotent
 * and answers the same whether or not the address was already on the list; unsubscribing
 * needs no account, only a signed, expiring link for that Store and address, which every mail
 * of the newsletter carries and "leave the list" mails on request [R122].
 */
export function newsletterRepository(scope: StoreScope) {
	const { db, storeId } = scope
	// The list is the newsletter Module's table [R31]; this layer decides what a request may do with it.
	const list = moduleData(scope, newsletterModule)
	return {
		/** Whether subscribing can work at all: the confirmation goes by mail. */
		available: () => sendingConfigured(),

		/**
		 * Double opt-in: the address is written pending and its owner is sent a link to confirm;
		 * it is on the list only once they follow it. An address already confirmed is left alone,
		 * and an address is sent at most one confirmation a day, however often it is typed in.
		 */
		async subscribe(email: string) {
			await transaction(db, async (tx) => {
				const subscribers = moduleData(sameStore(scope, tx), newsletterModule)
				const existing = await subscribers.find({ email })
				if (existing?.confirmed_at && !existing.unsubscribed_at) return
				if (!existing) await subscribers.create({ email, confirmed_at: null, unsubscribed_at: null })
				else if (existing.unsubscribed_at) await subscribers.update(existing.id, { unsubscribed_at: null, confirmed_at: null })
				const day = new Date().toISOString().slice(0, 10)
				await enqueueMail(tx, { storeId, kind: 'newsletter-confirm', subjectId: email, toAddress: email, dedupeKey: `newsletter:confirm:${email}:${day}` })
			})
		},

		/**
		 * The owner followed the link: on the list from now (`confirmed`), or already (`already`). An
		 * address that left the list since (the confirmation mail's own unsubscribe link) stays off
		 * it (`left`): only subscribing again puts it back.
		 */
		async confirm(email: string): Promise<'confirmed' | 'already' | 'left'> {
			const subscriber = await list.find({ email })
			if (!subscriber || subscriber.unsubscribed_at) return 'left'
			if (subscriber.confirmed_at) return 'already'
			if (await list.update(subscriber.id, { confirmed_at: new Date() }, { confirmed_at: null, unsubscribed_at: null })) return 'confirmed'
			// Not by this write: another click confirmed it, or it left, meanwhile.
			const now = await list.find({ email })
			return now && !now.unsubscribed_at ? 'already' : 'left'
		},

		async unsubscribe(email: string) {
			const subscriber = await list.find({ email, unsubscribed_at: null })
			if (subscriber) await list.update(subscriber.id, { unsubscribed_at: new Date() }, { unsubscribed_at: null })
		},

		/**
		 * "Leave the list" without a newsletter at hand [R122]: an address on the list (confirmed or
		 * not yet) is mailed its unsubscribe link, at most once a day; any other address gets nothing.
		 * The page answers the same either way: whoever typed an address learns nothing of it.
		 */
		async requestLeave(email: string) {
			await transaction(db, async (tx) => {
				const subscriber = await moduleData(sameStore(scope, tx), newsletterModule).find({ email, unsubscribed_at: null })
				if (!subscriber) return
				const day = new Date().toISOString().slice(0, 10)
				await enqueueMail(tx, { storeId, kind: 'newsletter-leave', subjectId: email, toAddress: email, dedupeKey: `newsletter:leave:${email}:${day}` })
			})
		},
	}
}

/** The page a recipient leaves the list from: their own signed link, valid a year [R122]. */
export function unsubscribeUrl({ storeId, email }: { storeId: string; email: string }) {
	return `${getConfig().appUrl}/newsletter/unsubscribe?${new URLSearchParams({ token: unsubscribeToken({ storeId, email }) })}`
}

/**
 * Every mail of the newsletter to one recipient, the confirmation and the leave link included,
 * is built here [R122]: it carries that recipient's unsubscribe link in its text, and the
 * mail worker turns it into RFC 8058 headers (`List-Unsubscribe: <link>`,
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`), so a mail client's own button unsubscribes
 * with one POST. A campaign renders each recipient's mail with this, never a mail without it.
 */
export function newsletterMail({
	storeId,
	email,
	...mail
}: {
	storeId: string
	email: string
	subject: string
	paragraphs: string[]
	link?: { href: string; label: string }
}): RenderedMail {
	return plainMail({ ...mail, listUnsubscribe: unsubscribeUrl({ storeId, email }) })
}

/**
 * The confirmation mail, rendered when it is sent. It carries the unsubscribe link too: whoever
 * did not ask for it can say so, and the address gets nothing more, even if the confirmation link
 * is followed later.
 */
export function confirmMailRenderer(db: Db): Renderer {
	return async ({ storeId, subjectId: email }) => {
		const store = await db.store.findUnique({ where: { id: storeId }, select: { name: true } })
		if (!store) return null
		const token = newsletterToken({ storeId, email, purpose: 'confirm' })
		return newsletterMail({
			storeId,
			email,
			subject: `Confirm your subscription to ${store.name}`,
			paragraphs: [
				`Someone, hopefully you, asked for ${store.name}'s newsletter to be sent to this address.`,
				'Follow the link to confirm. If it was not you, ignore this mail (nothing will be sent), or unsubscribe below to keep this address off the list.',
			],
			link: { href: `${getConfig().appUrl}/newsletter/confirm?${new URLSearchParams({ token })}`, label: 'Confirm my subscription' },
		})
	}
}

/** The mail "leave the list" sends: the recipient's unsubscribe link, nothing else. */
export function leaveMailRenderer(db: Db): Renderer {
	return async ({ storeId, subjectId: email }) => {
		const store = await db.store.findUnique({ where: { id: storeId }, select: { name: true } })
		if (!store) return null
		return newsletterMail({
			storeId,
			email,
			subject: `Leave ${store.name}'s newsletter`,
			paragraphs: [
				`Someone, hopefully you, asked for a link to take this address off ${store.name}'s newsletter.`,
				'Follow the link to leave the list. If it was not you, ignore this mail: nothing changes.',
			],
			link: { href: unsubscribeUrl({ storeId, email }), label: 'Leave the newsletter' },
		})
	}
}

/** Each purpose signs differently: a confirmation link never unsubscribes, nor the other way round. */
function sign(payload: string, secret: string, purpose: TokenPurpose = 'unsubscribe') {
	return createHmac('sha256', secret).update(`newsletter-${purpose}:${payload}`).digest('base64url')
}

export function newsletterToken(
	{ storeId, email, purpose, now = Date.now() }: { storeId: string; email: string; purpose: TokenPurpose; now?: number },
	secret = getConfig().authSecret,
) {
	const days = purpose === 'confirm' ? CONFIRM_TOKEN_DAYS : UNSUBSCRIBE_TOKEN_DAYS
	const expires = Math.floor(now / 1000) + days * 86_400
	const payload = Buffer.from(JSON.stringify({ s: storeId, e: email, x: expires })).toString('base64url')
	return `${payload}.${sign(payload, secret, purpose)}`
}

export function unsubscribeToken({ storeId, email, now = Date.now() }: { storeId: string; email: string; now?: number }, secret = getConfig().authSecret) {
	return newsletterToken({ storeId, email, purpose: 'unsubscribe', now }, secret)
}

export type TokenVerdict = { ok: true; email: string } | { ok: false; reason: 'malformed' | 'forged' | 'expired' | 'other-store' }

/** Checks the signature in constant time, then the expiry and the Store. */
export function readUnsubscribeToken(
	token: string,
	storeId: string,
	{ now = Date.now(), secret = getConfig().authSecret, purpose = 'unsubscribe' as TokenPurpose } = {},
): TokenVerdict {
	if (token.length > 1024) return { ok: false, reason: 'malformed' }
	const [payload, signature, extra] = token.split('.')
	if (!payload || !signature || extra !== undefined) return { ok: false, reason: 'malformed' }
	const expected = Buffer.from(sign(payload, secret, purpose))
	const given = Buffer.from(signature)
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'forged' }
	let body: { s?: unknown; e?: unknown; x?: unknown }
	try {
		body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
	} catch {
		return { ok: false, reason: 'malformed' }
	}
	if (typeof body.e !== 'string' || typeof body.s !== 'string' || typeof body.x !== 'number') return { ok: false, reason: 'malformed' }
	if (body.x * 1000 < now) return { ok: false, reason: 'expired' }
	if (body.s !== storeId) return { ok: false, reason: 'other-store' }
	return { ok: true, email: body.e }
}
