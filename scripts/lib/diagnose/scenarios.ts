/**
 * The store's own proof scenarios for retries, refunds and Store boundaries [R80], run by
 * `npm run diagnose` through the store's real code against a throwaway database it creates on
 * the configured engine and deletes afterwards: never the store's own database.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { DETAILS, createProduct, newGuest, offline } from '../../../tests/helpers/commerce'
import { newWebhookSecret, stripeEvents, stripeRequest, stripeSignature } from '../../../tests/helpers/events'
import { cartRepository } from '../../../app/cart/cart.server'
import type { Config } from '../../../app/config/env.server'
import { createDb, type Db } from '../../../app/data/db.server'
import { ensureRuntimeStore } from '../../../app/data/runtime-store.server'
import { unverifiedScope } from '../../../app/data/scope'
import { sessionsRepository } from '../../../app/data/sessions.server'
import type { AdminViewer } from '../../../app/data/viewer'
import type { CheckLine } from '../../../app/diagnostics/checks.server'
import { adminOrdersRepository } from '../../../app/orders/admin-orders.server'
import { placeOrder } from '../../../app/orders/checkout.server'
import { recordProviderRef } from '../../../app/orders/orders.server'
import { receiveEvent } from '../../../app/payments/events/receive.server'
import { applyAllReceived } from '../../../app/payments/events/worker.server'
import { connectionScope, sealSecret } from '../../../app/security/secret-box.server'
import { uploadsRepository } from '../../../app/uploads/uploads.server'
import { migrateDatabase } from '../../../server/migrate'

type Throwaway = { url: string; drop(): Promise<void> }

/** A new, empty database on the configured engine's server, named so nobody mistakes it. */
export async function throwawayDatabase(config: Config): Promise<Throwaway> {
	if (config.databaseProvider === 'sqlite') {
		const dir = mkdtempSync(path.join(tmpdir(), 'store-diagnose-'))
		return { url: `file:${path.join(dir, 'diagnose.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) }
	}
	const name = `store_diagnose_${randomBytes(6).toString('hex')}`
	const admin = Object.assign(new URL(config.databaseUrl), { pathname: '/postgres' }).href
	const run = async (sql: string) => {
		const client = new pg.Client({ connectionString: admin })
		await client.connect()
		try {
			await client.query(sql)
		} finally {
			await client.end()
		}
	}
	await run(`CREATE DATABASE "${name}"`)
	return {
		url: Object.assign(new URL(config.databaseUrl), { pathname: `/${name}` }).href,
		drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
	}
}

const line = (id: string, title: string, ok: boolean, found: string): CheckLine =>
	ok
		? { id, title, status: 'pass', found }
		: { id, title, status: 'fail', found, fix: 'The store’s own code broke a rule it is tested for: do not expose it; report it.' }

type World = { db: Db; storeId: string; otherStoreId: string; admin: AdminViewer; webhookSecret: string }

async function world(db: Db): Promise<World> {
	const { id: storeId } = await ensureRuntimeStore(db)
	const otherStoreId = (await db.store.create({ data: { handle: `diagnose-${randomUUID()}`, name: 'Another Store' }, select: { id: true } })).id
	await offline(db, storeId)
	await offline(db, otherStoreId)
	const webhookSecret = newWebhookSecret()
	await db.connection.create({
		data: {
			storeId,
			handle: 'stripe',
			provider: 'stripe',
			displayName: 'Card',
			secretBox: sealSecret({ secretKey: 'sk_test_diagnose', webhookSecret }, connectionScope(storeId, 'stripe')),
		},
	})
	const user = await db.user.create({
		data: { id: randomUUID(), storeId, email: 'diagnose-admin@example.com', name: 'Diagnose', role: 'admin' },
		select: { id: true },
	})
	const admin: AdminViewer = { kind: 'user', role: 'admin', storeId, userId: user.id, email: 'diagnose-admin@example.com', name: 'Diagnose' }
	return { db, storeId, otherStoreId, admin, webhookSecret }
}

/** A guest's Order of `storeId` for 50.00, paid through `handle`. */
async function orderOf(w: World, storeId: string, handle: string) {
	const product = await createProduct(w.db, storeId, { priceMinor: 5000, stock: 5 })
	const guest = newGuest(storeId)
	await cartRepository(w.db, guest).add({ productId: product.id, quantity: 1 })
	const { order } = await placeOrder({ db: w.db, viewer: guest, details: DETAILS, connectionHandle: handle, idempotencyKey: randomUUID() })
	return order
}

/** A delivery, then the event worker's turn, as the running store takes them one after the other. */
async function deliver(w: World, payload: string) {
	const request = stripeRequest('http://diagnose.invalid/api/events/stripe', payload, stripeSignature(payload, w.webhookSecret))
	const scope = unverifiedScope(w.db, w.storeId)
	const response = await receiveEvent(scope, { handle: 'stripe', request })
	await applyAllReceived(scope)
	return response
}

const state = (w: World, id: string) => w.db.order.findUniqueOrThrow({ where: { id }, select: { status: true, capturedMinor: true, refundedMinor: true } })

/** Retries: one signed event delivered three times is applied once. */
async function retries(w: World) {
	const order = await orderOf(w, w.storeId, 'stripe')
	const sessionId = `cs_test_${randomBytes(12).toString('hex')}`
	await recordProviderRef(unverifiedScope(w.db, w.storeId), { orderId: order.id, providerRef: sessionId })
	const payload = stripeEvents.sessionCompleted({ sessionId, paymentIntentId: `pi_${randomBytes(8).toString('hex')}`, orderId: order.id, amount: 5000 })
	const statuses = [await deliver(w, payload), await deliver(w, payload), await deliver(w, payload)].map((r) => r.status)
	const after = await state(w, order.id)
	const rows = await w.db.providerEvent.count({ where: { storeId: w.storeId, providerEventId: JSON.parse(payload).id } })
	const ok = statuses.every((s) => s === 200) && after.status === 'paid' && after.capturedMinor === 5000 && rows === 1
	return line(
		'scenario-retries',
		'Proof: retried deliveries',
		ok,
		`3 deliveries of one event answered ${statuses.join(', ')}; ${rows} stored, Order ${after.status}`,
	)
}

/** Refunds: partial, then the rest, then one more is refused; a provider refund past the capture moves nothing. */
async function refunds(w: World) {
	const order = await orderOf(w, w.storeId, 'offline')
	const orders = adminOrdersRepository(w.db, w.admin)
	await orders.act(order.number, 'mark_paid')
	await orders.act(order.number, 'refund', { refundMinor: 2000 })
	const partial = await state(w, order.id)
	await orders.act(order.number, 'refund', { refundMinor: 3000 })
	const full = await state(w, order.id)
	const over = await orders.act(order.number, 'refund', { refundMinor: 100 }).then(
		() => 'accepted',
		(error: { status?: number }) => `refused (${error.status ?? 'error'})`,
	)
	const last = await state(w, order.id)
	const ok =
		partial.refundedMinor === 2000 &&
		partial.status === 'paid' &&
		full.refundedMinor === 5000 &&
		full.status === 'refunded' &&
		over.startsWith('refused') &&
		last.refundedMinor === 5000
	return line(
		'scenario-refunds',
		'Proof: refunds',
		ok,
		`partial 20.00 → ${partial.status} (${partial.refundedMinor}); the rest → ${full.status} (${full.refundedMinor}); 1.00 more ${over}, refunded stays ${last.refundedMinor}`,
	)
}

/** Store boundaries: another Store's Order, object and session are refused to this Store's admin. */
async function boundaries(w: World) {
	const theirs = await orderOf(w, w.otherStoreId, 'offline')
	const order = await adminOrdersRepository(w.db, w.admin)
		.byNumber(theirs.number)
		.then(
			(found) => (found && (found as { id: string }).id === theirs.id ? 'opened' : 'refused'),
			() => 'refused',
		)
	const key = `${w.otherStoreId}/${randomUUID()}.png`
	await w.db.uploadedObject.create({ data: { storeId: w.otherStoreId, key, contentType: 'image/png', byteSize: 1, sha256: '0'.repeat(64) } })
	const object = await uploadsRepository(w.db, w.admin, refusingStorage)
		.openReadable(key)
		.then(
			(found) => (found ? 'opened' : 'refused'),
			() => 'refused',
		)
	const otherUser = await w.db.user.create({
		data: { id: randomUUID(), storeId: w.otherStoreId, email: 'other-store@example.com', name: 'Other' },
		select: { id: true },
	})
	const session = await w.db.session.create({
		data: {
			id: randomUUID(),
			storeId: w.otherStoreId,
			userId: otherUser.id,
			token: randomBytes(24).toString('hex'),
			expiresAt: new Date(Date.now() + 3_600_000),
		},
		select: { id: true },
	})
	const revoked = await sessionsRepository(w.db, w.admin)
		.revoke(session.id)
		.catch(() => false)
	const sessionKept = (await w.db.session.count({ where: { id: session.id } })) === 1
	const ok = order === 'refused' && object === 'refused' && !revoked && sessionKept
	return line(
		'scenario-boundaries',
		'Proof: Store boundaries',
		ok,
		`another Store’s Order ${order}, its object ${object}, its session ${sessionKept ? 'kept (ending it refused)' : 'ENDED'}`,
	)
}

/** Storage that must never be reached: a boundary check that gets this far has already failed. */
const refusingStorage = {
	put: async () => {
		throw new Error('not reached')
	},
	get: async () => {
		throw new Error('storage reached for another Store’s key')
	},
	delete: async () => {
		throw new Error('not reached')
	},
} as unknown as Parameters<typeof uploadsRepository>[2]

export async function proofScenarios(config: Config): Promise<CheckLine[]> {
	let throwaway: Throwaway
	try {
		throwaway = await throwawayDatabase(config)
	} catch (error) {
		return [
			{
				id: 'scenarios',
				title: 'Proof scenarios',
				status: 'fail',
				found: `could not create a throwaway database (${(error as Error).message.split('\n')[0]})`,
				fix: 'Give the database user the right to create databases (PostgreSQL: ALTER ROLE … CREATEDB), or run from a machine that can.',
			},
		]
	}
	try {
		migrateDatabase(throwaway.url, { quiet: true })
		const db = createDb(throwaway.url)
		try {
			const w = await world(db)
			const results: CheckLine[] = []
			for (const [id, title, scenario] of [
				['scenario-retries', 'Proof: retried deliveries', retries],
				['scenario-refunds', 'Proof: refunds', refunds],
				['scenario-boundaries', 'Proof: Store boundaries', boundaries],
			] as const) {
				results.push(await scenario(w).catch((error: Error) => line(id, title, false, `stopped: ${error.message.split('\n')[0]}`)))
			}
			return results
		} finally {
			await db.$disconnect()
		}
	} finally {
		await throwaway.drop()
	}
}
