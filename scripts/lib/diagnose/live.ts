/**
 * Live boundary checks [R80]: requests sent to the running store that it must refuse, each
 * checked against the store's own database to have changed nothing. Unsigned, wrongly signed
 * and stale events to every active Connection's endpoint; a cookie-less write to Store Admin;
 * an upload without a session.
 */
import { randomBytes } from 'node:crypto'
import { multipart, IMAGES } from '../../../tests/helpers/images'
import { newWebhookSecret, stripeEvent, stripeSignature } from '../../../tests/helpers/events'
import { Webhook } from 'standardwebhooks'
import type { Config } from '../../../app/config/env.server'
import type { Db } from '../../../app/data/db.server'
import type { CheckLine } from '../../../app/diagnostics/checks.server'
import { type VerificationSecrets, activeVerificationSecrets } from '../../../app/payments/connections.server'
import { connectionScope, openingSecrets, tryOpenSecret } from '../../../app/security/secret-box.server'

const TIMEOUT_MS = 10_000
const refusedStatus = (status: number) => status >= 400 && status < 500

function verdict(id: string, title: string, ok: boolean, found: string, fix: string): CheckLine {
	return ok ? { id, title, status: 'pass', found } : { id, title, status: 'fail', found, fix }
}

async function send(url: string, init: RequestInit) {
	return fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) })
}

/** What an event delivery may change: the Connection's inbox and its refusal count. */
async function eventFootprint(db: Db, connectionId: string) {
	const [stored, connection] = await Promise.all([
		db.providerEvent.count({ where: { connectionId } }),
		db.connection.findUniqueOrThrow({ where: { id: connectionId }, select: { rejectedEvents: true } }),
	])
	return { stored, rejected: connection.rejectedEvents }
}

type Delivery = { name: string; title: string; headers: Record<string, string> }

/** Three deliveries that must be refused: no signature, a signature by another secret, a stale one by the real secret. */
function deliveries(provider: string, payload: string, secrets: string[]): Delivery[] {
	const stale = Math.floor(Date.now() / 1000) - 3_600
	if (provider === 'stripe') {
		return [
			{ name: 'unsigned', title: 'an unsigned event', headers: {} },
			{ name: 'wrong-signature', title: 'an event signed with another secret', headers: { 'stripe-signature': stripeSignature(payload, newWebhookSecret()) } },
			{
				name: 'stale',
				title: 'an event signed an hour ago',
				headers: secrets[0] ? { 'stripe-signature': stripeSignature(payload, secrets[0], stale) } : {},
			},
		]
	}
	const id = `msg_diagnose_${randomBytes(6).toString('hex')}`
	const signed = (secret: string, at: Date) => ({
		'webhook-id': id,
		'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
		'webhook-signature': new Webhook(secret).sign(id, at, payload),
	})
	return [
		{ name: 'unsigned', title: 'an unsigned event', headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) } },
		{ name: 'wrong-signature', title: 'an event signed with another secret', headers: signed(newWebhookSecret(), new Date()) },
		{ name: 'stale', title: 'an event signed an hour ago', headers: secrets[0] ? signed(secrets[0], new Date(stale * 1000)) : {} },
	]
}

export async function liveChecks({ db, storeId, config, url }: { db: Db; storeId: string; config: Config; url: string }): Promise<CheckLine[]> {
	const origin = new URL(url).origin
	try {
		const health = await send(`${origin}/healthz`, {})
		if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`)
	} catch (error) {
		return [
			{
				id: 'live',
				title: 'Live boundary checks',
				status: 'fail',
				found: `the store at ${origin} does not answer (${(error as Error).message})`,
				fix: 'Start the store (`npm start`) and run again, or pass --url with its address.',
			},
		]
	}
	const lines: CheckLine[] = []
	const connections = await db.connection.findMany({
		where: { storeId, active: true, provider: { in: ['stripe', 'generic'] } },
		select: { id: true, handle: true, provider: true, secretBox: true },
	})
	if (connections.length === 0) {
		lines.push({
			id: 'live-events',
			title: 'Live: provider events',
			// A shop paid only offline has no provider to send events: the Payment provider line says
			// whether that shop can be paid [R131].
			status: 'info',
			found: 'no active provider Connection sends events (see Payment provider)',
		})
	}
	for (const connection of connections) {
		const opened = connection.secretBox
			? tryOpenSecret<VerificationSecrets>(connection.secretBox, connectionScope(storeId, connection.handle), openingSecrets(config))
			: null
		const secrets = activeVerificationSecrets(opened?.value ?? null)
		const payload =
			connection.provider === 'stripe'
				? stripeEvent('payment_intent.succeeded', {
						id: `pi_diagnose_${randomBytes(6).toString('hex')}`,
						object: 'payment_intent',
						amount_received: 1,
						currency: 'usd',
					})
				: JSON.stringify({ type: 'payment.succeeded', data: { amount: 1, currency: 'usd' } })
		for (const delivery of deliveries(connection.provider, payload, secrets)) {
			const before = await eventFootprint(db, connection.id)
			const response = await send(`${origin}/api/events/${connection.handle}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...delivery.headers },
				body: payload,
			})
			const after = await eventFootprint(db, connection.id)
			const unchanged = after.stored === before.stored
			lines.push(
				verdict(
					`live-event-${delivery.name}-${connection.handle}`,
					`Live: ${delivery.title} to /api/events/${connection.handle}`,
					refusedStatus(response.status) && unchanged,
					`answered ${response.status}; ${unchanged ? 'nothing stored' : `${after.stored - before.stored} event(s) STORED`}`,
					'The endpoint must refuse it with 400/401 and store nothing: check the Connection’s webhook secret and that this address reaches this store.',
				),
			)
		}
	}

	// A cookie-less write to Store Admin, from the store's public origin (so only the missing session refuses it).
	const publicOrigin = config.publicUrlConfigured ? config.appUrl : origin
	const store = await db.store.findUniqueOrThrow({ where: { id: storeId }, select: { name: true } })
	const admin = await send(`${origin}/admin/store`, {
		method: 'POST',
		headers: { origin: publicOrigin, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ name: `diagnose ${randomBytes(4).toString('hex')}` }).toString(),
	})
	const renamed = (await db.store.findUniqueOrThrow({ where: { id: storeId }, select: { name: true } })).name !== store.name
	const toSignIn = admin.status >= 300 && admin.status < 400 && (admin.headers.get('location') ?? '').includes('/sign-in')
	lines.push(
		verdict(
			'live-admin-without-session',
			'Live: a Store Admin write without a session',
			(toSignIn || refusedStatus(admin.status)) && !renamed,
			`answered ${admin.status}${toSignIn ? ' to sign-in' : ''}; the Store ${renamed ? 'was RENAMED' : 'is unchanged'}`,
			'Every /admin action must require the admin role: do not expose this build.',
		),
	)

	// An upload without a session.
	const objects = await db.uploadedObject.count({ where: { storeId } })
	const form = multipart([{ name: 'file', filename: 'diagnose.png', type: 'image/png', body: IMAGES.png }])
	const upload = await send(`${origin}/api/upload`, {
		method: 'POST',
		headers: { origin: publicOrigin, 'content-type': form.contentType },
		body: new Uint8Array(form.body),
	})
	const stored = (await db.uploadedObject.count({ where: { storeId } })) - objects
	lines.push(
		verdict(
			'live-upload-without-session',
			'Live: an upload without a session',
			refusedStatus(upload.status) && stored === 0,
			`answered ${upload.status}; ${stored === 0 ? 'nothing stored' : `${stored} object(s) STORED`}`,
			'Uploads must require an admin session: do not expose this build.',
		),
	)
	return lines
}
