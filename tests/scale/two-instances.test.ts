/**
 * Two store instances on one PostgreSQL, one Redis and one bucket, behind a balancer that routes
 * by `/readyz` [R126] [R81]: minutes of mixed traffic (pages, carts, checkouts, sign-ins, admin
 * edits, uploads), checks made straight on each instance, then one instance SIGKILLed while the
 * traffic goes on. `SCALE_SECONDS` sets how long the traffic runs (`npm run test:scale`: 180;
 * `npm test`: a CI-sized 45).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProduct } from '../helpers/commerce'
import { multipart, pngOfSize } from '../helpers/images'
import { Guest } from '../helpers/shopper'
import { expectOrdersWhole, failedSignIns, fetchStatus, figures, purchase, type Sample, sleep, traffic } from '../faults/support'
import { ACCOUNT_BUDGET, type Fleet, startFleet } from './instances'

const SECONDS = Number(process.env.SCALE_SECONDS ?? 180)
/** How many shoppers run each loop of the traffic at once (admin edits stay one). */
const CROWD = Number(process.env.SCALE_CROWD ?? 1)
const STOCK = 100_000
/** How soon an admin's edit made on one instance must show on the other [R126]. */
const PROPAGATION_MS = 1_000

describe(`two instances behind a balancer, ${SECONDS} s of mixed traffic, one SIGKILLed [R126]`, () => {
	let fleet: Fleet
	let products: Array<Awaited<ReturnType<typeof createProduct>>>
	let edited: Awaited<ReturnType<typeof createProduct>>
	/** Edited only by the checks made straight on each instance. */
	let directlyEdited: Awaited<ReturnType<typeof createProduct>>
	const shoppers = Array.from({ length: 3 }, (_, i) => ({ name: `Scale Shopper ${i}`, email: `scale-shopper-${i}@example.com`, password: strongPassword() }))
	const victim = { name: 'Scale Victim', email: 'scale-victim@example.com', password: strongPassword() }

	beforeAll(async () => {
		fleet = await startFleet()
		const { db, storeId } = fleet.database
		products = await Promise.all(Array.from({ length: 3 }, () => createProduct(db, storeId, { stock: STOCK, priceMinor: 1200 })))
		edited = await createProduct(db, storeId, { stock: 5, priceMinor: 999, title: 'Edited lamp' })
		directlyEdited = await createProduct(db, storeId, { stock: 5, priceMinor: 999, title: 'Direct lamp' })
		for (const account of [...shoppers, victim]) {
			const signedUp = await new Guest(fleet.balancer.origin).send('/sign-up', account)
			expect(signedUp.status, await signedUp.text()).toBe(302)
		}
	}, 240_000)
	afterAll(async () => {
		await fleet?.stop()
	})

	it('serves every kind of request from either instance, loses nothing when one dies, and only that one leaves rotation', async () => {
		const { balancer, a, b, database } = fleet
		const lb = balancer.origin
		const admin = new Guest(lb)
		expect((await admin.send('/sign-in', { email: a.admin.email, password: a.admin.password, redirectTo: '' })).status).toBe(302)

		const purchases: Array<{ email: string; status: number }> = []
		const resends: number[] = []
		const uploads: Array<{ key: string; bytes: number }> = []
		let edits = 0
		let editsNotSeen = 0
		let n = 0
		const run = traffic(
			{
				...crowd({
					home: () => fetchStatus(`${lb}/`),
					product: () => fetchStatus(`${lb}/products/${products[n % products.length]!.slug}`),
					search: () => fetchStatus(`${lb}/search?q=product`),
					cart: async () => {
						const guest = new Guest(lb)
						const added = await guest.send('/cart', { intent: 'add', productId: edited.id, quantity: '1' })
						return added.status === 302 ? guest.send('/cart') : added
					},
					checkout: () => checkout(`scale-${n++}@example.com`),
					checkoutToo: () => checkout(`scale-${n++}@example.com`),
					signIn: async () => {
						const shopper = shoppers[n++ % shoppers.length]!
						const guest = new Guest(lb)
						const signedIn = await guest.send('/sign-in', { email: shopper.email, password: shopper.password, redirectTo: '' })
						return signedIn.status === 302 ? guest.send('/account') : signedIn
					},
					failedSignIn: failedSignIns(lb),
				}),
				adminEdit: async () => {
					const title = `Edited lamp ${++edits}`
					const saved = await admin.send(`/admin/products/${edited.id}`, productForm(edited, title))
					if (saved.status !== 302) return saved
					// Whichever instance answers next shows the edit.
					const page = await fetchStatus(`${lb}/products/${edited.slug}`)
					const html = await page.clone().text()
					if (page.status === 200 && !html.includes(title)) editsNotSeen++
					return page
				},
				...crowd({
					upload: async () => {
						const body = pngOfSize(8 * 1024 + (n++ % 512))
						const stored = await upload(lb, admin, body)
						if (stored.status !== 201) return stored
						const [object] = ((await stored.json()) as { objects: Array<{ key: string }> }).objects
						uploads.push({ key: object!.key, bytes: body.byteLength })
						return fetchStatus(`${lb}/media/${object!.key}`, { headers: { cookie: admin.cookie } })
					},
				}),
			},
			100,
		)
		function checkout(email: string) {
			const product = products[n % products.length]!
			return purchase(lb, product.id, email, 'offline', { resend: 5, onResend: (status) => resends.push(status) }).then(
				(answer) => {
					purchases.push({ email, status: answer.status })
					return answer
				},
				(error: unknown) => {
					purchases.push({ email, status: 0 })
					throw error
				},
			)
		}

		const started = Date.now()
		await sleep(3_000)
		// Straight to each instance, while the traffic runs.
		const direct = await directChecks(fleet, admin, victim, directlyEdited)
		expect(balancer.routed.get('a')).toBeGreaterThan(0)
		expect(balancer.routed.get('b')).toBeGreaterThan(0)

		await sleep(Math.max(0, started + (SECONDS * 1000) / 2 - Date.now()))
		const killedAt = Date.now()
		await a.crash()
		await sleep(Math.max(5_000, started + SECONDS * 1000 - Date.now()))
		const samples = await run.stop()
		const endedAt = Date.now()

		// Readiness: only the killed instance left rotation, once; the survivor never flipped.
		expect(balancer.flips.filter((flip) => flip.upstream === 'b')).toEqual([])
		expect(balancer.flips.filter((flip) => flip.upstream === 'a').map((flip) => flip.ready)).toEqual([false])
		const outAt = balancer.flips.find((flip) => flip.upstream === 'a')!.at
		expect(balancer.noneReady).toBe(0)

		// No 5xx but documented shedding; a request cut by the kill only if the killed instance had it.
		const judged = judge(samples, { killedAt, outAt })
		expect(judged.unexplained).toEqual([])
		expect(balancer.lost.filter((lost) => lost.upstream !== 'a')).toEqual([])
		expect(judged.cut.length).toBeLessThanOrEqual(balancer.lost.length)

		// Every confirmed checkout is exactly one Order; numbers have no gap; stock is exact.
		const confirmed = purchases.filter((p) => p.status === 302)
		expect(confirmed.length).toBeGreaterThan(10)
		const orders = await database.db.order.findMany({ where: { storeId: database.storeId }, select: { number: true, email: true }, orderBy: { number: 'asc' } })
		expect(orders.length, 'one Order per confirmation').toBe(confirmed.length)
		expect(new Set(orders.map((order) => order.email))).toEqual(new Set(confirmed.map((p) => p.email)))
		expect(orders.map((order) => order.number)).toEqual(orders.map((_, i) => orders[0]!.number + i))
		await expectOrdersWhole(
			database.db,
			database.storeId,
			new Map([...products.map((p): [string, number] => [p.id, STOCK]), [edited.id, 5], [directlyEdited.id, 5]]),
		)

		// Edits were seen by whichever instance answered next; every upload is served by the survivor.
		expect(editsNotSeen).toBe(0)
		expect(edits).toBeGreaterThan(0)
		expect(uploads.length).toBeGreaterThan(0)
		for (const { key, bytes } of uploads) {
			const served = await fetchStatus(`${b.origin}/media/${key}`, { headers: { cookie: admin.cookie } })
			expect(served.status, key).toBe(200)
			expect((await served.arrayBuffer()).byteLength, key).toBe(bytes)
		}
		expect((await fetchStatus(`${b.origin}/readyz`)).status).toBe(200)

		const count = (label: string) => samples.filter((s) => s.label.split(' ')[0] === label).length
		figures('two-instances', {
			seconds: Math.round((endedAt - started) / 1000),
			crowd: CROWD,
			requests: samples.length,
			pages: count('home') + count('product') + count('search'),
			carts: count('cart'),
			checkouts: purchases.length,
			orders: orders.length,
			signIns: count('signIn') + count('failedSignIn'),
			adminEdits: edits,
			uploads: uploads.length,
			routedA: balancer.routed.get('a') ?? 0,
			routedB: balancer.routed.get('b') ?? 0,
			shed503: judged.shed.length,
			outage503: judged.outage.length,
			cutByKill: judged.cut.length,
			lostAtBalancer: balancer.lost.length,
			retriedByBalancer: balancer.retried,
			checkoutResends: resends.length,
			outAfterKillMs: outAt - killedAt,
			slowestReadyzA: balancer.slowestProbe.get('a') ?? 0,
			slowestReadyzB: balancer.slowestProbe.get('b') ?? 0,
			storeNameShownByMs: Math.max(...direct.storeName),
			productTitleShownByMs: Math.max(...direct.productTitle),
		})
	})
})

/**
 * Checks made straight on each instance (not through the balancer), while both run: a session
 * made on one is valid on the other; an admin edit made on one shows on the other within
 * PROPAGATION_MS (the Store's name, which every page reads from a cache, and a Product's
 * title); wrong passwords spread over both spend one budget; an upload made through one is
 * served by the other.
 */
async function directChecks(fleet: Fleet, admin: Guest, victim: { email: string; password: string }, edited: { id: string; slug: string; variantId: string }) {
	const { a, b } = fleet
	const shopper = new Guest(fleet.balancer.origin)
	expect((await shopper.send('/sign-in', { email: victim.email, password: victim.password, redirectTo: '' }, { via: a.origin })).status).toBe(302)
	expect((await shopper.send('/account', undefined, { via: b.origin })).status).toBe(200)
	expect((await shopper.send('/account', undefined, { via: a.origin })).status).toBe(200)

	const storeName: number[] = []
	const productTitle: number[] = []
	for (const [from, to] of [
		[a, b],
		[b, a],
		[a, b],
		[b, a],
	] as const) {
		const name = `Scale Store ${randomBytes(4).toString('hex')}`
		// The other instance has the profile cached: it was read there just before the edit.
		expect(await pageOf(to.origin, '/_root.data')).not.toContain(name)
		expect((await admin.send('/admin/store', { name }, { via: from.origin })).status).toBe(302)
		storeName.push(await seenWithin(to.origin, '/_root.data', name))
		const title = `Direct lamp ${randomBytes(4).toString('hex')}`
		expect((await admin.send(`/admin/products/${edited.id}`, productForm(edited, title), { via: from.origin })).status).toBe(302)
		productTitle.push(await seenWithin(to.origin, `/products/${edited.slug}.data`, title))
	}

	// One client's wrong passwords for one account, alternating instances, spend one shared budget.
	const guesser = new Guest(fleet.balancer.origin)
	const wrong = { email: victim.email, password: 'not the password', redirectTo: '' }
	const statuses: number[] = []
	for (let i = 0; i < ACCOUNT_BUDGET + 2; i++) statuses.push((await guesser.send('/sign-in', wrong, { via: (i % 2 === 0 ? a : b).origin })).status)
	expect(statuses).toEqual([...Array<number>(ACCOUNT_BUDGET).fill(401), 429, 429])

	const body = pngOfSize(20 * 1024)
	const stored = await upload(a.origin, admin, body)
	expect(stored.status).toBe(201)
	const [object] = ((await stored.json()) as { objects: Array<{ key: string }> }).objects
	const served = await fetchStatus(`${b.origin}/media/${object!.key}`, { headers: { cookie: admin.cookie } })
	expect(served.status).toBe(200)
	expect(Buffer.from(await served.arrayBuffer()).equals(body)).toBe(true)
	return { storeName, productTitle }
}

/** A page's text, asked again after a shed answer (503 with Retry-After). */
async function pageOf(origin: string, path: string) {
	for (let attempt = 1; ; attempt++) {
		const page = await fetchStatus(`${origin}${path}`)
		const body = await page.text()
		if (page.status !== 503 || attempt === 5) {
			expect(page.status, body.slice(0, 200)).toBe(200)
			return body
		}
		await sleep(Number(page.headers.get('retry-after') ?? 1) * 1000)
	}
}

/**
 * How soon after now `text` shows in a route's data on `origin` (the loader data the client
 * router reads: lighter than the page). A request is sent every 100 ms without waiting for the
 * one before, since on a busy machine one answer may take longer than the contract itself:
 * one sent within PROPAGATION_MS must show it, and every one sent after must. Answers the time
 * at which the first request that showed it was sent. A shed request (503) says nothing.
 */
async function seenWithin(origin: string, path: string, text: string) {
	const since = Date.now()
	const polls: Array<{ asked: number; seen: boolean }> = []
	const ask = async () => {
		const asked = Date.now() - since
		const answer = await fetchStatus(`${origin}${path}`)
		const body = await answer.text()
		if (answer.status === 503) return
		expect(answer.status, body.slice(0, 200)).toBe(200)
		polls.push({ asked, seen: body.includes(text) })
	}
	const asking: Array<Promise<void>> = []
	while (Date.now() - since <= PROPAGATION_MS + 100) {
		asking.push(ask())
		await sleep(100)
	}
	await Promise.all(asking)
	const told = polls
		.sort((x, y) => x.asked - y.asked)
		.map((poll) => `${poll.asked}${poll.seen ? '+' : '-'}`)
		.join(' ')
	const firstSeen = Math.min(...polls.filter((poll) => poll.seen).map((poll) => poll.asked))
	expect(firstSeen, `"${text}" on ${origin}${path}, requests sent at (ms, + shown): ${told}`).toBeLessThanOrEqual(PROPAGATION_MS)
	expect(
		polls.filter((poll) => poll.asked >= PROPAGATION_MS && !poll.seen),
		told,
	).toEqual([])
	return firstSeen
}

/** The edited Product's form: a new title and price, its one variant's stock unchanged. */
function productForm(product: { slug: string; variantId: string }, title: string) {
	return {
		title,
		slug: product.slug,
		description: '',
		status: 'active',
		imageKey: '',
		'variant.0.id': product.variantId,
		'variant.0.price': `${9 + (title.length % 5)}.99`,
		'variant.0.stock': '5',
	}
}

function upload(origin: string, admin: Guest, png: Buffer) {
	const { body, contentType } = multipart([{ name: 'file', filename: 'scale.png', body: png }])
	return fetch(`${origin}/api/upload`, {
		method: 'POST',
		headers: { cookie: admin.cookie, origin: admin.origin, 'x-forwarded-host': new URL(admin.origin).host, 'content-type': contentType },
		body,
		signal: AbortSignal.timeout(10_000),
	})
}

/** Each loop CROWD times, as `label`, `label 2`, …: that many shoppers doing it at once. */
function crowd(loops: Record<string, () => Promise<Response>>) {
	return Object.fromEntries(
		Object.entries(loops).flatMap(([label, loop]) => Array.from({ length: CROWD }, (_, i) => [i === 0 ? label : `${label} ${i + 1}`, loop] as const)),
	)
}

function strongPassword() {
	return `scale-${randomBytes(12).toString('hex')}`
}

/**
 * Sorts every answer that was not a success or a refusal: shedding (503 with Retry-After, the
 * door's "busy" page or JSON), the outage page (503 with Retry-After), a request cut by the kill
 * (no answer, or the balancer's 502) — allowed only if it was under way when the instance died
 * and began before the balancer took it out — and the rest, which fail the suite.
 */
function judge(samples: Sample[], { killedAt, outAt }: { killedAt: number; outAt: number }) {
	const failed = samples.filter((s) => s.status >= 500 || s.status === 0)
	const retried = (s: Sample) => s.status === 503 && /^\d+$/.test(s.retryAfter ?? '')
	const shed = failed.filter((s) => retried(s) && /busy|OVERLOADED/.test(s.body ?? ''))
	const outage = failed.filter((s) => retried(s) && !shed.includes(s))
	const cut = failed.filter((s) => (s.status === 0 || s.status === 502) && s.at <= outAt && s.at + s.ms >= killedAt)
	const unexplained = failed.filter((s) => !shed.includes(s) && !outage.includes(s) && !cut.includes(s)).map((s) => `${s.label} ${s.status} ${s.body ?? ''}`)
	return { shed, outage, cut, unexplained }
}
