import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { offline, startedCardOrder } from '../../../tests/helpers/commerce'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpAdmin } from '../../../tests/helpers/databases'
import { connectionOf } from '../../../tests/helpers/event-delivery'
import { newWebhookSecret, stripeEvents, stripeRequest, stripeSignature } from '../../../tests/helpers/events'
import { createDb } from '../../data/db.server'
import { unverifiedScope } from '../../data/scope'
import { adminConnectionsRepository } from '../admin-connections.server'
import { receiveEvent } from './receive.server'
import { MAX_APPLY_ATTEMPTS, applyAllReceived, eventWorker } from './worker.server'

/** This file's own Connection: other test files share the database. */
const HANDLE = 'wk-stripe'

describe.each(PROVIDERS)('the event worker on %s', (provider) => {
	let t: TestDatabase
	let connectionId: string
	const secret = newWebhookSecret()
	const scope = () => unverifiedScope(t.db, t.storeId)

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		await offline(t.db, t.storeId)
		const { viewer } = await signUpAdmin(t)
		await adminConnectionsRepository(t.db, viewer).create({
			provider: 'stripe',
			handle: HANDLE,
			displayName: 'Card',
			secretKey: 'sk_test_x',
			webhookSecret: secret,
		})
		connectionId = await connectionOf(scope(), HANDLE)
	})
	afterAll(() => t.db.$disconnect())

	const receive = (payload: string, db = t.db) =>
		receiveEvent(unverifiedScope(db, t.storeId), {
			handle: HANDLE,
			request: stripeRequest(`http://store.test/api/events/${HANDLE}`, payload, stripeSignature(payload, secret)),
		})
	const order = (id: string) => t.db.order.findUniqueOrThrow({ where: { id }, select: { status: true, capturedMinor: true, refundedMinor: true } })
	const rows = () => t.db.providerEvent.findMany({ where: { connectionId }, select: { providerEventId: true, outcome: true } })

	/** A paid-then-refunded story of one Order, as three events: paid, refunded 1,000, refunded 3,000 (cumulative). */
	async function story() {
		const { order, sessionId, paymentIntentId } = await startedCardOrder(t.db, t.storeId, HANDLE)
		const o = { orderId: order.id, sessionId, paymentIntentId }
		return {
			orderId: order.id,
			events: [
				stripeEvents.sessionCompleted({ ...o, amount: 5000 }),
				stripeEvents.chargeRefunded({ paymentIntentId, amountRefunded: 1000, amount: 5000, orderId: order.id }),
				stripeEvents.chargeRefunded({ paymentIntentId, amountRefunded: 3000, amount: 5000, orderId: order.id }),
			],
		}
	}

	it('keeps an event at the intake and applies nothing until the worker runs [R63]', async () => {
		const { orderId, events } = await story()
		expect((await receive(events[0]!)).status).toBe(200)
		expect((await order(orderId)).status).toBe('awaiting_payment')
		expect(await applyAllReceived(scope(), { connectionId })).toBe(1)
		expect(await order(orderId)).toMatchObject({ status: 'paid', capturedMinor: 5000 })
	})

	it('applies every event once when two workers race over ten repeats of each, delivered out of order [R63, R64, R65]', async () => {
		const stories = await Promise.all(Array.from({ length: 3 }, () => story()))
		// Refunds first, then the payments; each event ten times, from two instances (on SQLite, which
		// serves one instance, two workers of one process).
		const other = provider === 'postgresql' ? createDb(t.url) : t.db
		try {
			const deliveries = stories
				.flatMap(({ events }) => [events[2]!, events[1]!, events[0]!])
				.flatMap((payload) => Array.from({ length: 10 }, (_, i) => [payload, i % 2] as const))
			const answers = await Promise.all(deliveries.map(([payload, where]) => receive(payload, where ? other : t.db)))
			expect(answers.map((answer) => answer.status)).toEqual(Array(deliveries.length).fill(200))
			const [here, there] = await Promise.all([
				applyAllReceived(scope(), { connectionId }),
				applyAllReceived(unverifiedScope(other, t.storeId), { connectionId }),
			])
			expect(here + there).toBe(9)
		} finally {
			if (other !== t.db) await other.$disconnect()
		}
		for (const { orderId, events } of stories) {
			expect(await order(orderId)).toMatchObject({ status: 'paid', capturedMinor: 5000, refundedMinor: 3000 })
			const ids = events.map((payload) => (JSON.parse(payload) as { id: string }).id)
			const kept = (await rows()).filter((row) => ids.includes(row.providerEventId))
			expect(kept).toHaveLength(3)
			expect(kept.every((row) => row.outcome !== 'received')).toBe(true)
		}
	})

	/**
	 * An event whose outcome the database refuses to record (a trigger raises for its id): as a bug
	 * in applying it would, it fails every time it is applied. Dropped again after `work`.
	 */
	async function refusing(eventId: string, work: () => Promise<void>) {
		const name = `refuse_${eventId.replace(/\W/g, '_')}`
		const statements =
			provider === 'postgresql'
				? [
						`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'cannot read this event'; END $$ LANGUAGE plpgsql`,
						`CREATE TRIGGER ${name} BEFORE UPDATE ON "provider_events" FOR EACH ROW WHEN (NEW."providerEventId" = '${eventId}' AND NEW."outcome" NOT IN ('received', 'failed')) EXECUTE FUNCTION ${name}()`,
					]
				: [
						`CREATE TRIGGER ${name} BEFORE UPDATE ON "provider_events" WHEN NEW."providerEventId" = '${eventId}' AND NEW."outcome" NOT IN ('received', 'failed') BEGIN SELECT RAISE(ABORT, 'cannot read this event'); END`,
					]
		for (const statement of statements) await t.db.$executeRawUnsafe(statement)
		try {
			await work()
		} finally {
			await t.db.$executeRawUnsafe(`DROP TRIGGER ${name}${provider === 'postgresql' ? ' ON "provider_events"' : ''}`)
			if (provider === 'postgresql') await t.db.$executeRawUnsafe(`DROP FUNCTION ${name}()`)
		}
	}

	it('sets aside an event that cannot be applied after its attempts; the events before and after it are applied, each once [R64]', async () => {
		const { orderId, events } = await story()
		const [payment, poison, refund] = events.map((payload) => (JSON.parse(payload) as { id: string }).id) as [string, string, string]
		for (const payload of events) await receive(payload)
		const errors: string[] = []
		await refusing(poison, async () => {
			// The three fail together; the payment then goes alone; the refund waits behind the
			// poison until its attempts run out, then goes.
			await applyAllReceived(scope(), { connectionId, log: { warn: () => {}, error: (line) => errors.push(line) } })
		})
		expect(errors).toHaveLength(MAX_APPLY_ATTEMPTS)
		// The database's own words, whatever each engine's driver makes of a trigger's refusal.
		expect(errors.map((line) => /could not be applied \(attempt (\d) of 5\)/.exec(line)?.[1])).toEqual(['1', '2', '3', '4', '5'])
		const outcome = async (id: string) =>
			t.db.providerEvent.findFirstOrThrow({ where: { connectionId, providerEventId: id }, select: { outcome: true, summary: true, applyAttempts: true } })
		expect(await outcome(payment)).toMatchObject({ outcome: 'applied', applyAttempts: 0 })
		expect(await outcome(poison)).toMatchObject({ outcome: 'failed', applyAttempts: MAX_APPLY_ATTEMPTS })
		expect((await outcome(poison)).summary).toContain('Replay it once the cause is fixed')
		expect(await outcome(refund)).toMatchObject({ outcome: 'applied' })
		// Paid once, refunded to the last cumulative amount: nothing of a failed batch stayed applied.
		expect(await order(orderId)).toMatchObject({ status: 'paid', capturedMinor: 5000, refundedMinor: 3000 })
	})

	it('wakes when the intake keeps an event, and applies it without waiting for its next look', async () => {
		const { orderId, events } = await story()
		const current = scope()
		const worker = eventWorker({ db: current.db, scope: async () => current, log: { warn: () => {}, error: () => {} }, pollMs: 60_000, connectionId }).start()
		try {
			await new Promise((resolve) => setTimeout(resolve, 100))
			await receive(events[0]!)
			await expect.poll(async () => (await order(orderId)).status, { timeout: 5_000 }).toBe('paid')
		} finally {
			await worker.stop()
		}
	})
	it('starts while the Store cannot be read yet (a database still being prepared) and applies once it can', async () => {
		const { orderId, events } = await story()
		const current = scope()
		let asked = 0
		const warnings: string[] = []
		const worker = eventWorker({
			db: current.db,
			scope: async () => {
				asked += 1
				if (asked === 1) throw new Error('The table `main.stores` does not exist in the current database.')
				return current
			},
			log: { warn: (line) => warnings.push(line), error: () => {} },
			pollMs: 20,
			connectionId,
		}).start()
		try {
			await receive(events[0]!)
			await expect.poll(async () => (await order(orderId)).status, { timeout: 5_000 }).toBe('paid')
			expect(asked).toBe(2)
			expect(warnings).toEqual([expect.stringContaining('could not apply events, retrying'), '[events] applying events again'])
		} finally {
			await worker.stop()
		}
	})
})
