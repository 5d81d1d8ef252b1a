import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DETAILS, createProduct, newGuest, offline, startedCardOrder } from '../../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, anotherStore, openTestDatabase } from '../../../tests/helpers/databases'
import {
	genericRequest,
	genericRequestOfBytes,
	newWebhookSecret,
	stripeEvent,
	stripeEvents,
	stripeRequest,
	stripeSignature,
	stripeSignatureOfBytes,
} from '../../../tests/helpers/events'
import { cartRepository } from '../../cart/cart.server'
import { createDb } from '../../data/db.server'
import { placeOrder } from '../../orders/checkout.server'
import { connectionScope, sealSecret } from '../../security/secret-box.server'
import { forgetEndpoints, receiveEvent } from './receive.server'
import { applyAllReceived } from './worker.server'
import { connectionOf } from '../../../tests/helpers/event-delivery'
import { unverifiedScope } from '../../data/scope'

const URL_STRIPE = 'http://store.test/api/events/stripe'

describe.each(PROVIDERS)('provider events on %s', (provider) => {
	let t: TestDatabase
	let secret: string
	let genericSecret: string
	let otherStoreId: string

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		secret = newWebhookSecret()
		genericSecret = newWebhookSecret()
		await t.db.connection.create({
			data: {
				storeId: t.storeId,
				handle: 'stripe',
				provider: 'stripe',
				displayName: 'Card',
				secretBox: sealSecret({ secretKey: 'sk_test_x', webhookSecret: secret }, connectionScope(t.storeId, 'stripe')),
			},
		})
		await t.db.connection.create({
			data: {
				storeId: t.storeId,
				handle: 'bank',
				provider: 'generic',
				displayName: 'Bank',
				secretBox: sealSecret({ webhookSecret: genericSecret }, connectionScope(t.storeId, 'bank')),
			},
		})
		otherStoreId = (await anotherStore(t.db)).id
	})
	afterAll(() => t.db.$disconnect())

	/** A checked-out Order paid through `handle`. */
	async function orderVia(handle: string, storeId = t.storeId) {
		if (storeId !== t.storeId) await offline(t.db, storeId)
		const product = await createProduct(t.db, storeId, { priceMinor: 5000 })
		const guest = newGuest(storeId)
		await cartRepository(t.db, guest).add({ productId: product.id, quantity: 1 })
		const { order } = await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: handle, idempotencyKey: randomUUID() })
		return order
	}
	/** A Stripe Order whose Checkout Session the store started and recorded. */
	async function started() {
		const begun = await startedCardOrder(t.db, t.storeId, 'stripe')
		return { ...begun, orderId: begun.order.id }
	}
	const state = (id: string) =>
		t.db.order.findUniqueOrThrow({ where: { id }, select: { status: true, refundedMinor: true, disputed: true, paymentNote: true } })
	const scope = () => unverifiedScope(t.db, t.storeId)
	/** The intake alone: verify, keep, answer. */
	const receive = (payload: string | Uint8Array, signature: string | null = stripeSignature(String(payload), secret), handle = 'stripe', now?: number) =>
		receiveEvent(scope(), { handle, request: stripeRequest(`http://store.test/api/events/${handle}`, payload, signature), now })
	/** A delivery, then the event worker's turn for its Connection, as the running store takes them. */
	const deliver = async (...args: Parameters<typeof receive>) => {
		const response = await receive(...args)
		await applyAllReceived(scope(), { connectionId: await connectionOf(scope(), args[2] ?? 'stripe') })
		return response
	}
	/** What the event with this id did, once applied. */
	const outcomeOf = async (eventId: string) =>
		(await t.db.providerEvent.findFirstOrThrow({ where: { storeId: t.storeId, providerEventId: eventId }, select: { outcome: true } })).outcome
	const idOf = (payload: string) => (JSON.parse(payload) as { id: string }).id
	const completed = (o: Awaited<ReturnType<typeof started>>, extra: { id?: string } = {}) =>
		extra.id
			? JSON.stringify({ ...JSON.parse(stripeEvents.sessionCompleted({ ...o, amount: 5000 })), id: extra.id })
			: stripeEvents.sessionCompleted({ ...o, amount: 5000 })
	const rejected = async () => (await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId, handle: 'stripe' } })).rejectedEvents

	it('applies the same event delivered 10 times exactly once [R63, R64]', async () => {
		const o = await started()
		const payload = completed(o)
		const answers = []
		for (let i = 0; i < 10; i++) answers.push(await (await deliver(payload)).json())
		expect(answers.filter((a) => a.duplicate === false)).toHaveLength(1)
		expect(answers.filter((a) => a.duplicate === true)).toHaveLength(9)
		expect((await state(o.orderId)).status).toBe('paid')
		const row = await t.db.providerEvent.findFirstOrThrow({ where: { orderId: o.orderId }, select: { duplicates: true, outcome: true } })
		expect(row).toEqual({ duplicates: 9, outcome: 'applied' })
	})

	it('counts every repeat of a concurrent burst, written by the time each is answered [R63]', async () => {
		const o = await started()
		const payload = completed(o)
		await deliver(payload)
		const responses = await Promise.all(Array.from({ length: 25 }, () => deliver(payload)))
		expect(responses.map((r) => r.status)).toEqual(Array(25).fill(200))
		const row = await t.db.providerEvent.findFirstOrThrow({ where: { orderId: o.orderId }, select: { duplicates: true } })
		expect(row.duplicates).toBe(25)
	})

	it('writes the repeats of many events retried together in one statement, each event its own count [R63]', async () => {
		const orders = await Promise.all(Array.from({ length: 6 }, () => started()))
		const payloads = orders.map((o) => completed(o))
		for (const payload of payloads) await deliver(payload)
		const statements = vi.spyOn(t.db, '$executeRaw')
		try {
			// Event i is repeated i + 1 times, all 21 repeats in flight at once.
			const repeats = payloads.flatMap((payload, i) => Array.from({ length: i + 1 }, () => payload))
			const responses = await Promise.all(repeats.map((payload) => deliver(payload)))
			expect(responses.map((r) => r.status)).toEqual(Array(21).fill(200))
			expect(statements.mock.calls.length).toBeGreaterThan(0)
			console.log('STATEMENTS', statements.mock.calls.length)
			expect(statements.mock.calls.length).toBeLessThanOrEqual(4)
		} finally {
			statements.mockRestore()
		}
		const rows = await t.db.providerEvent.findMany({ where: { orderId: { in: orders.map((o) => o.orderId) } }, select: { orderId: true, duplicates: true } })
		expect(orders.map((o) => rows.find((row) => row.orderId === o.orderId)?.duplicates)).toEqual([1, 2, 3, 4, 5, 6])
	})

	it('fails the deliveries whose count could not be written, and counts exactly the repeats it answered [R63]', async () => {
		const o = await started()
		const payload = completed(o)
		await deliver(payload)
		const duplicates = async () => (await t.db.providerEvent.findFirstOrThrow({ where: { orderId: o.orderId }, select: { duplicates: true } })).duplicates
		const statements = vi.spyOn(t.db, '$executeRaw').mockRejectedValueOnce(new Error('database went away'))
		try {
			// Repeats arriving together share one write: when it fails, each of them fails, uncounted.
			const failed = await Promise.allSettled([deliver(payload), deliver(payload)])
			expect(failed.map((s) => s.status)).toEqual(['rejected', 'rejected'])
			expect(await duplicates()).toBe(0)
			const answered = await Promise.all([deliver(payload), deliver(payload)])
			expect(answered.map((r) => r.status)).toEqual([200, 200])
		} finally {
			statements.mockRestore()
		}
		expect(await duplicates()).toBe(2)
		expect((await deliver(payload)).status).toBe(200)
		expect(await duplicates()).toBe(3)
	})

	it('answers a repeat this process has not seen (another process recorded the event) as a duplicate, counted, changing nothing [R63, R64]', async () => {
		const o = await started()
		const payload = completed(o)
		expect((await (await deliver(payload)).json()).duplicate).toBe(false)
		const paidAs = await state(o.orderId)
		// A second client on the same database: what another instance, or this one after a restart, sees.
		const other = createDb(t.url)
		try {
			const deliverThere = () =>
				receiveEvent(unverifiedScope(other, t.storeId), { handle: 'stripe', request: stripeRequest(URL_STRIPE, payload, stripeSignature(payload, secret)) })
			const inserts = vi.spyOn(other.providerEvent, 'create')
			const answer = await deliverThere()
			expect(answer.status).toBe(200)
			expect(await answer.json()).toMatchObject({ received: true, duplicate: true, outcome: 'duplicate' })
			// Its unique key refused the repeat's row: nothing was kept twice.
			expect(inserts).toHaveBeenCalledTimes(1)
			// The next repeat there is answered from that process's memory.
			expect((await (await deliverThere()).json()).duplicate).toBe(true)
			expect(inserts).toHaveBeenCalledTimes(1)
		} finally {
			await other.$disconnect()
		}
		expect(await state(o.orderId)).toEqual(paidAs)
		const rows = await t.db.providerEvent.findMany({ where: { orderId: o.orderId }, select: { duplicates: true, outcome: true } })
		expect(rows).toEqual([{ duplicates: 2, outcome: 'applied' }])
	})

	it('keeps and applies nothing for an event recorded already (by another process, meanwhile) [R63, R64]', async () => {
		const o = await started()
		const payload = completed(o)
		const before = await state(o.orderId)
		// Another instance recorded this event as applied (its row is there, unseen by this
		// process), though this Order shows nothing of it: a second application would pay it.
		const connection = await t.db.connection.findFirstOrThrow({ where: { storeId: t.storeId, handle: 'stripe' }, select: { id: true } })
		await t.db.providerEvent.create({
			data: {
				storeId: t.storeId,
				connectionId: connection.id,
				providerEventId: JSON.parse(payload).id,
				type: 'checkout.session.completed',
				occurredAt: new Date(),
				payload: new TextEncoder().encode(payload),
				outcome: 'applied',
				summary: 'recorded elsewhere',
			},
		})
		const answer = await deliver(payload)
		expect(answer.status).toBe(200)
		expect(await answer.json()).toMatchObject({ duplicate: true, outcome: 'duplicate' })
		// The unique key refused the record: the worker found nothing to apply, and paid nothing.
		expect(await state(o.orderId)).toEqual(before)
		expect(await t.db.order.findUniqueOrThrow({ where: { id: o.orderId }, select: { paymentIntentRef: true } })).toEqual({ paymentIntentRef: null })
	})

	it('answers 20 concurrent deliveries of one event with 2xx, applying it once (no unique-violation 500s) [R63]', async () => {
		const o = await started()
		const payload = completed(o)
		const responses = await Promise.all(Array.from({ length: 20 }, () => deliver(payload)))
		expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200))
		const bodies = await Promise.all(responses.map((r) => r.json()))
		expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1)
		expect(await t.db.providerEvent.count({ where: { orderId: o.orderId } })).toBe(1)
	})

	it('applies 20 concurrent deliveries of one event in one transaction of the worker [R63, R64]', async () => {
		const o = await started()
		const payload = completed(o)
		const responses = await Promise.all(Array.from({ length: 20 }, () => receive(payload)))
		expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200))
		expect((await state(o.orderId)).status).toBe('awaiting_payment')
		const transactions = vi.spyOn(t.db, '$transaction')
		try {
			expect(await applyAllReceived(scope(), { connectionId: await connectionOf(scope(), 'stripe') })).toBe(1)
			expect(transactions).toHaveBeenCalledTimes(1)
		} finally {
			transactions.mockRestore()
		}
		expect((await state(o.orderId)).status).toBe('paid')
	})

	describe('out of order [R65]', () => {
		it('a late processing after the payment leaves the Order paid', async () => {
			const o = await started()
			await deliver(completed(o))
			await deliver(stripeEvent('payment_intent.processing', { id: o.paymentIntentId, metadata: { orderId: o.orderId } }))
			expect((await state(o.orderId)).status).toBe('paid')
		})

		it('a late failure after the payment leaves the Order paid; a failure first keeps it awaiting with the reason', async () => {
			const first = await started()
			await deliver(completed(first))
			await deliver(
				stripeEvent('payment_intent.payment_failed', {
					id: first.paymentIntentId,
					metadata: { orderId: first.orderId },
					last_payment_error: { message: 'declined' },
				}),
			)
			expect((await state(first.orderId)).status).toBe('paid')
			const second = await started()
			// An asynchronous payment: the Session completes unpaid (linking its PaymentIntent), then the PaymentIntent fails.
			await deliver(stripeEvents.sessionCompleted({ ...second, amount: 5000, paid: false }))
			await deliver(
				stripeEvent('payment_intent.payment_failed', {
					id: second.paymentIntentId,
					metadata: { orderId: second.orderId },
					last_payment_error: { message: 'Card declined' },
				}),
			)
			expect(await state(second.orderId)).toMatchObject({ status: 'awaiting_payment', paymentNote: 'Payment failed: Card declined' })
			await deliver(stripeEvents.intentSucceeded({ paymentIntentId: second.paymentIntentId, amountReceived: 5000, orderId: second.orderId }))
			expect((await state(second.orderId)).status).toBe('paid')
		})

		it('a full refund that arrives before the payment ends refunded either way round', async () => {
			const refund = (o: { paymentIntentId: string }) => stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: 5000 })
			const a = await started()
			await deliver(refund(a))
			await deliver(completed(a))
			expect(await state(a.orderId)).toMatchObject({ status: 'refunded', refundedMinor: 5000 })
			const b = await started()
			await deliver(completed(b))
			await deliver(refund(b))
			expect(await state(b.orderId)).toMatchObject({ status: 'refunded', refundedMinor: 5000 })
		})

		it('partial refunds are cumulative: the larger amount wins whatever the order', async () => {
			const o = await started()
			await deliver(completed(o))
			const partial = (amount: number) => stripeEvents.chargeRefunded({ paymentIntentId: o.paymentIntentId, amountRefunded: amount, amount: 5000 })
			await deliver(partial(3000))
			await deliver(partial(1000))
			expect(await state(o.orderId)).toMatchObject({ status: 'paid', refundedMinor: 3000 })
		})

		it('a dispute flags the Order once', async () => {
			const o = await started()
			await deliver(completed(o))
			await deliver(stripeEvent('charge.dispute.created', { id: 'dp_1', payment_intent: o.paymentIntentId }))
			expect(await state(o.orderId)).toMatchObject({ status: 'paid', disputed: true })
		})
	})

	describe('verification [R60, R61]', () => {
		it('refuses a missing, empty, truncated or v0-only signature, counting it without storing the body', async () => {
			const o = await started()
			const payload = completed(o)
			const good = stripeSignature(payload, secret)
			const before = await rejected()
			expect((await deliver(payload, null)).status).toBe(400)
			expect((await deliver(payload, '')).status).toBe(400)
			for (const signature of [good.slice(0, good.length - 10), good.replace('v1=', 'v0='), `t=${Math.floor(Date.now() / 1000)}`]) {
				expect((await deliver(payload, signature)).status, signature.slice(0, 30)).toBe(401)
			}
			expect((await rejected()) - before).toBe(5)
			expect(await t.db.providerEvent.count({ where: { orderId: o.orderId } })).toBe(0)
			expect((await state(o.orderId)).status).toBe('awaiting_payment')
		})

		it('refuses a valid signature 301 s in the past and 301 s in the future', async () => {
			const o = await started()
			const payload = completed(o)
			const now = Math.floor(Date.now() / 1000)
			// The store's clock is pinned to the same second: a delivery verified after the wall
			// clock ticked on would otherwise see +301 s as +300 s and accept it.
			const at = now * 1000
			expect((await deliver(payload, stripeSignature(payload, secret, now - 301), 'stripe', at)).status).toBe(401)
			expect((await deliver(payload, stripeSignature(payload, secret, now + 301), 'stripe', at)).status).toBe(401)
			expect((await deliver(payload, stripeSignature(payload, secret, now - 299), 'stripe', at)).status).toBe(200)
		})

		it('refuses the body re-serialised with other whitespace under the original signature', async () => {
			const o = await started()
			const payload = completed(o)
			const signature = stripeSignature(payload, secret)
			const reformatted = JSON.stringify(JSON.parse(payload), null, 2)
			expect((await deliver(reformatted, signature)).status).toBe(401)
			expect((await state(o.orderId)).status).toBe('awaiting_payment')
		})

		it('refuses the right signature sent to another Connection’s endpoint', async () => {
			const o = await started()
			const payload = completed(o)
			const response = await receiveEvent(unverifiedScope(t.db, t.storeId), {
				handle: 'bank',
				request: stripeRequest('http://store.test/api/events/bank', payload, stripeSignature(payload, secret)),
			})
			expect(response.status).toBe(400)
			expect((await state(o.orderId)).status).toBe('awaiting_payment')
			expect((await receiveEvent(unverifiedScope(t.db, t.storeId), { handle: 'no-such', request: stripeRequest(URL_STRIPE, payload, 'x') })).status).toBe(404)
		})

		it('accepts the previous secret during a rotation overlap, and not after it', async () => {
			const o = await started()
			const old = newWebhookSecret()
			const next = newWebhookSecret()
			await t.db.connection.update({
				where: { storeId_handle: { storeId: t.storeId, handle: 'stripe' } },
				data: {
					secretBox: sealSecret(
						{ secretKey: 'sk_test_x', webhookSecret: next, previousWebhookSecrets: [{ secret: old, expiresAt: Date.now() + 60_000 }] },
						connectionScope(t.storeId, 'stripe'),
					),
				},
			})
			forgetEndpoints(t.db)
			try {
				const payload = completed(o)
				expect((await deliver(payload, stripeSignature(payload, old), 'stripe', Date.now() + 120_000)).status).toBe(401)
				expect((await deliver(payload, stripeSignature(payload, old))).status).toBe(200)
			} finally {
				await t.db.connection.update({
					where: { storeId_handle: { storeId: t.storeId, handle: 'stripe' } },
					data: { secretBox: sealSecret({ secretKey: 'sk_test_x', webhookSecret: secret }, connectionScope(t.storeId, 'stripe')) },
				})
				forgetEndpoints(t.db)
			}
		})

		it('refuses a Stripe-Signature with more than one t=, counting it [R60]', async () => {
			const o = await started()
			const payload = completed(o)
			const now = Math.floor(Date.now() / 1000)
			const before = await rejected()
			const signed = stripeSignature(payload, secret, now)
			for (const header of [`t=${now},${signed}`, `${signed},t=${now}`, signed.replace(',', `,t=${now},`)]) {
				const response = await deliver(payload, header)
				expect(response.status, header.slice(0, 40)).toBe(401)
				expect(await response.json()).toMatchObject({ code: 'VERIFICATION_FAILED', message: expect.stringContaining('more than one t=') })
			}
			expect((await rejected()) - before).toBe(3)
			expect((await state(o.orderId)).status).toBe('awaiting_payment')
		})

		it('applies the 300 s window to the timestamp the signature was verified against: an old delivery under a fresh t= is refused [R60]', async () => {
			const o = await started()
			const payload = completed(o)
			const now = Math.floor(Date.now() / 1000)
			// A delivery captured an hour ago, replayed with a fresh timestamp put in front.
			const old = stripeSignature(payload, secret, now - 3600)
			expect((await deliver(payload, `t=${now},${old}`)).status).toBe(401)
			expect((await deliver(payload, old)).status).toBe(401)
			expect((await state(o.orderId)).status).toBe('awaiting_payment')
			expect(await t.db.providerEvent.count({ where: { orderId: o.orderId } })).toBe(0)
		})

		it('answers a validly signed body that is not a JSON event with 400, counted as a refusal and not stored [R42, R60]', async () => {
			const before = await rejected()
			for (const body of [
				'not json',
				'{"id":"evt_cut"',
				'null',
				'[1,2]',
				'"evt_x"',
				'{"type":"payment_intent.succeeded"}',
				'\uFEFF{"id":"evt_bom","type":"x"}',
			]) {
				const response = await deliver(body, stripeSignature(body, secret))
				expect(response.status, body).toBe(400)
				expect(await response.json()).toMatchObject({ code: 'INVALID_EVENT' })
			}
			const generic = new TextEncoder().encode('<xml>not json</xml>')
			const response = await receiveEvent(unverifiedScope(t.db, t.storeId), {
				handle: 'bank',
				request: genericRequestOfBytes('http://store.test/api/events/bank', generic, genericSecret),
			})
			expect(response.status).toBe(400)
			expect((await rejected()) - before).toBe(7)
			expect(await t.db.providerEvent.count({ where: { providerEventId: { in: ['evt_cut', 'evt_bom', 'evt_x'] } } })).toBe(0)
		})

		it('stores the verified body byte for byte: line breaks, tabs, escapes and characters outside the BMP [R61]', async () => {
			const o = await started()
			const id = `evt_bytes_${randomUUID().slice(0, 8)}`
			const object = {
				id: o.sessionId,
				object: 'checkout.session',
				payment_intent: o.paymentIntentId,
				payment_status: 'paid',
				amount_total: 5000,
				currency: 'usd',
				metadata: { orderId: o.orderId },
			}
			const text = `{\r\n\t"id" : "${id}",\t"type":"checkout.session.completed", "created": ${Math.floor(Date.now() / 1000)},\r"note":"caf\u00e9\u2028 \\u00e9 \\/ \u{1F600}",\r\n"data":{"object":${JSON.stringify(object)}}}  \n\n`
			const generic = Buffer.from('{"type":"ping","data":{"name":"\u00fe\u00e9 \u{1F600}"}}\t\r\n')
			const genericId = `msg_bytes_${randomUUID().slice(0, 8)}`

			expect((await deliver(text, stripeSignature(text, secret))).status).toBe(200)
			const response = await receiveEvent(unverifiedScope(t.db, t.storeId), {
				handle: 'bank',
				request: genericRequestOfBytes('http://store.test/api/events/bank', generic, genericSecret, { id: genericId }),
			})
			expect(response.status).toBe(200)

			const stored = async (providerEventId: string) =>
				Buffer.from((await t.db.providerEvent.findFirstOrThrow({ where: { providerEventId }, select: { payload: true } })).payload)
			expect((await stored(id)).equals(Buffer.from(text))).toBe(true)
			expect((await stored(genericId)).equals(generic)).toBe(true)
			expect((await state(o.orderId)).status).toBe('paid')
		})

		it('refuses bytes that are not exact UTF-8 text (so the libraries would verify some other reading of them), counted and not stored [R61]', async () => {
			const before = await rejected()
			const id = `evt_latin1_${randomUUID().slice(0, 8)}`
			const latin1 = Buffer.concat([
				Buffer.from(`{"id":"${id}","type":"customer.updated","data":{"object":{"name":"Caf`),
				Buffer.from([0xe9, 0xff, 0xc3]),
				Buffer.from('"}}}\r\n'),
			])
			const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`{"id":"${id}_bom","type":"customer.updated"}`)])
			for (const [bytes, header] of [
				[latin1, stripeSignatureOfBytes(latin1, secret)],
				[latin1, stripeSignature(latin1.toString('utf8'), secret)],
				[bom, stripeSignature(bom.toString('utf8').slice(1), secret)],
			] as const) {
				const response = await deliver(bytes, header)
				expect(response.status).toBe(400)
				expect(await response.json()).toMatchObject({ code: 'INVALID_EVENT' })
			}
			const generic = Buffer.concat([Buffer.from('{"type":"ping","data":{"name":"'), Buffer.from([0xe9, 0x80]), Buffer.from('"}}')])
			const response = await receiveEvent(unverifiedScope(t.db, t.storeId), {
				handle: 'bank',
				request: genericRequestOfBytes('http://store.test/api/events/bank', generic, genericSecret, { id: `msg_${id}` }),
			})
			expect(response.status).toBe(400)
			expect((await rejected()) - before).toBe(3)
			expect(await t.db.providerEvent.count({ where: { providerEventId: { startsWith: id } } })).toBe(0)
		})

		it('refuses an oversize body with 413 [R43]', async () => {
			const payload = stripeEvent('payment_intent.succeeded', { id: 'pi', padding: 'x'.repeat(300 * 1024) })
			expect((await deliver(payload)).status).toBe(413)
		})
	})

	describe('scope [R62]', () => {
		it('changes nothing for an event that names another Store’s Order', async () => {
			const foreign = await orderVia('offline', otherStoreId)
			const payload = stripeEvents.intentSucceeded({ paymentIntentId: 'pi_foreign', amountReceived: 5000, orderId: foreign.id })
			expect((await deliver(payload)).status).toBe(200)
			expect(await outcomeOf(idOf(payload))).toBe('unmatched')
			expect((await state(foreign.id)).status).toBe('awaiting_payment')
		})

		it('changes nothing for an Order of this Store paid through another Connection', async () => {
			const offlineOrder = await orderVia('offline')
			const payload = stripeEvents.intentSucceeded({ paymentIntentId: 'pi_offline', amountReceived: 5000, orderId: offlineOrder.id })
			expect((await deliver(payload)).status).toBe(200)
			expect(await outcomeOf(idOf(payload))).toBe('unmatched')
			expect((await state(offlineOrder.id)).status).toBe('awaiting_payment')
		})

		it('stores and acknowledges unknown event types', async () => {
			const payload = stripeEvent('customer.created', { id: 'cus_1' })
			const response = await deliver(payload)
			expect(response.status).toBe(200)
			expect(await response.json()).toMatchObject({ received: true, duplicate: false })
			expect(await outcomeOf(idOf(payload))).toBe('ignored')
		})
	})

	describe('the generic scheme (Standard Webhooks)', () => {
		it('verifies, dedupes and applies; refuses a wrong secret and an old timestamp [R60, R63]', async () => {
			const order = await orderVia('bank')
			const body = {
				type: 'payment.succeeded',
				occurred_at: Math.floor(Date.now() / 1000),
				data: { reference: String(order.number), amount: 5000, currency: 'USD' },
			}
			const url = 'http://store.test/api/events/bank'
			const receive = async (request: Request) => {
				const response = await receiveEvent(scope(), { handle: 'bank', request })
				await applyAllReceived(scope(), { connectionId: await connectionOf(scope(), 'bank') })
				return response
			}
			expect((await receive(genericRequest(url, body, newWebhookSecret()))).status).toBe(401)
			expect((await receive(genericRequest(url, body, genericSecret, { timestamp: new Date(Date.now() - 301_000) }))).status).toBe(401)
			const delivery = genericRequest(url, body, genericSecret, { id: 'msg_fixed' })
			expect((await (await receive(delivery.clone())).json()).duplicate).toBe(false)
			expect((await (await receive(delivery)).json()).duplicate).toBe(true)
			expect((await state(order.id)).status).toBe('paid')
		})
	})
})
