/**
 * Store Admin with data on every page, checked with axe-core on a desktop (1280 × 800) and a phone
 * (390 × 844): a serious or critical violation fails the run. The pages come from the route table
 * (app/routes.ts), so a page added to Store Admin fails here until a group below visits it. Each
 * group seeds what its pages show (an Order, a customer, a guest buyer, a discount code, a
 * collection, an upload, a provider event, a campaign with its mails) and is one signed-in
 * browser context, resized between the two checks of each page. At both sizes the tables keep
 * money, order numbers and statuses on one line, and on the phone they are stacked rows.
 */
import { randomUUID } from 'node:crypto'
import { type Page } from '@playwright/test'
import routes from '../../app/routes.ts'
import { createDb } from '../../app/data/db.server.ts'
import { stripeEvents, stripeSignature } from '../helpers/events.ts'
import { IMAGES } from '../helpers/images.ts'
import { testDatabaseUrl } from '../helpers/postgres.ts'
import { VIEWPORTS, violations } from './support/axe.ts'
import { ADMIN_EMAIL, asAdmin, expect, placeOrder, serverOrigin, signUp, test } from './support/fixtures.ts'

/** The route patterns each group's test visits (a path is the most specific pattern it matches). */
const GROUPS = {
	settings: [
		'admin/store',
		'admin/activity',
		'admin/email',
		'admin/newsletter',
		'admin/newsletter/campaigns',
		'admin/uploads',
		'admin/events',
		'admin/connections',
		'admin/shipping',
	],
	catalog: [
		'admin/reviews',
		'admin/products',
		'admin/products/new',
		'admin/products/:id',
		'admin/collections',
		'admin/collections/:id',
		'admin/discounts',
		'admin/discounts/new',
		'admin/discounts/:id',
	],
	sales: [
		'admin',
		'admin/orders',
		'admin/orders/:number',
		'admin/orders/:number/packing-slip',
		'admin/customers',
		'admin/customers/guest',
		'admin/customers/:id',
	],
} as const

type Route = { path?: string; file: string; children?: Route[] }

/** Store Admin's pages in the route table: its paths whose module renders a page (not a CSV or export resource). */
function adminPages(table: readonly Route[] = routes): string[] {
	return table.flatMap((route) => [
		...(route.path?.match(/^admin(\/|$)/) && route.file.endsWith('.tsx') ? [route.path] : []),
		...adminPages(route.children ?? []),
	])
}

/** The route a visited path is a page of: of the patterns it matches, the one with the fewest parameters. */
function routeOf(path: string) {
	const pathname = new URL(path, serverOrigin()).pathname.replace(/^\//, '')
	const params = (pattern: string) => pattern.split('/').filter((part) => part.startsWith(':')).length
	const matches = adminPages().filter((pattern) => new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}$`).test(pathname))
	return matches.sort((a, b) => params(a) - params(b))[0] ?? `(no admin page) ${path}`
}

/** The link of the first row holding `text` on `list`. */
async function linkIn(page: Page, list: string, text: string | RegExp, link: string) {
	await page.goto(list)
	const href = await page.locator('tbody tr', { hasText: text }).first().locator(link).first().getAttribute('href')
	if (!href) throw new Error(`No ${link} in a row with ${text} on ${list}`)
	return href
}

/**
 * What an owner reads in every admin table: money, Order numbers and status
 * badges are one line box each (never broken inside), an email is never broken inside a word, and
 * on the phone a table is stacked rows (a block per row, each cell named by its column) that fits
 * the screen's width. A status badge has words and its tone's own colour.
 */
function tablesHold(page: Page, viewport: (typeof VIEWPORTS)[number]) {
	return page.evaluate(
		({ phone }) => {
			const problems: string[] = []
			const whole = '.admin-content .price, .admin-content .badge, .admin-content table a[href^="/admin/orders/"], .admin-content .email > span'
			for (const element of document.querySelectorAll<HTMLElement>(whole)) {
				const lines = new Set([...element.getClientRects()].map((rect) => Math.round(rect.bottom)))
				if (lines.size !== 1) problems.push(`“${element.textContent}” is broken over ${lines.size} lines`)
			}
			for (const element of document.querySelectorAll<HTMLElement>('.admin-content table .email')) {
				const style = getComputedStyle(element)
				if (style.overflowWrap !== 'normal' || style.wordBreak !== 'normal') problems.push(`the email “${element.textContent}” may break inside a word`)
			}
			// A badge says its status in words and in its tone's colour: two tones never look alike.
			const tones = new Map<string, string>()
			for (const badge of document.querySelectorAll<HTMLElement>('.admin-content .badge')) {
				if (!badge.textContent?.trim()) problems.push('a badge without words')
				const tone = [...badge.classList].find((name) => name.startsWith('badge-')) ?? 'none'
				if (tones.has(tone)) continue
				const background = getComputedStyle(badge).backgroundColor
				for (const [other, colour] of tones) if (other !== tone && colour === background) problems.push(`${tone} and ${other} badges look alike`)
				tones.set(tone, background)
			}
			if (phone) {
				for (const table of document.querySelectorAll<HTMLElement>('.admin-content table')) {
					const columns = table.querySelectorAll('thead th').length
					for (const row of table.querySelectorAll<HTMLElement>('tbody tr')) {
						if (getComputedStyle(row).display !== 'block') problems.push('a table row is not stacked')
						const cells = row.querySelectorAll('td')
						// A stacked cell names its column (a row spanning the table, an empty state, needs none).
						if (columns > 1 && cells.length > 1) {
							for (const cell of cells) {
								// A cell of buttons alone (Resend, Replay) says what it does itself.
								const words = cell.cloneNode(true) as HTMLElement
								for (const button of words.querySelectorAll('button')) button.remove()
								if (!cell.dataset.label && words.textContent?.trim())
									problems.push(`a stacked cell without its column’s name: “${cell.textContent?.slice(0, 40)}”`)
							}
						}
					}
				}
				if (document.documentElement.scrollWidth > window.innerWidth) {
					const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter(
						(element) =>
							element.getBoundingClientRect().right > window.innerWidth &&
							![...element.children].some((child) => child.getBoundingClientRect().right > window.innerWidth),
					)
					problems.push(
						`the page is ${document.documentElement.scrollWidth}px wide: ${wide.map((element) => `${element.tagName.toLowerCase()}.${element.className} “${element.textContent?.slice(0, 40)}”`).join(', ')}`,
					)
				}
			}
			return problems
		},
		{ phone: viewport.name === 'phone' },
	)
}

/** The pages checked, and the routes they are pages of: exactly the group's. */
async function checkGroup(page: Page, group: keyof typeof GROUPS, paths: string[]) {
	expect([...new Set(paths.map(routeOf))].sort()).toEqual([...GROUPS[group]].sort())
	expect(await violations(page, paths, (_path, viewport) => tablesHold(page, viewport))).toEqual([])
}

// The groups share no state and each keeps its own time: both workers may take them.
test.describe.configure({ mode: 'parallel' })

test('every Store Admin page in the route table is visited by one group', () => {
	const grouped = Object.values(GROUPS).flat()
	expect(new Set(grouped).size).toBe(grouped.length)
	expect([...grouped].sort()).toEqual(adminPages().sort())
})

test('Store Admin’s settings pages, with an upload, an outbox mail, a provider event and a campaign, have no serious accessibility violations at either size', async ({
	browser,
}) => {
	test.setTimeout(240_000)
	// An Order of its own, so the outbox lists its confirmation mail whatever ran before.
	const buyer = await browser.newPage()
	await placeOrder(buyer)
	await buyer.close()
	// A provider event the inbox shows (one that names no Order of the Store: held for review).
	const payload = stripeEvents.sessionCompleted({
		sessionId: `cs_test_${randomUUID()}`,
		paymentIntentId: `pi_${randomUUID()}`,
		orderId: randomUUID(),
		amount: 1600,
	})
	const delivered = await fetch(`${serverOrigin()}/api/events/stripe`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, process.env.E2E_STRIPE_WEBHOOK_SECRET!) },
		body: payload,
	})
	expect(delivered.status).toBe(200)
	// A campaign with its mails waiting (this server sends no mail, so it cannot queue one itself).
	await seedCampaign()
	const { admin, close } = await asAdmin(browser, true, '/admin')
	const uploaded = await admin.request.post('/api/upload', {
		multipart: { file: { name: 'a11y.png', mimeType: 'image/png', buffer: IMAGES.png } },
		headers: { Origin: serverOrigin() },
	})
	expect(uploaded.status()).toBe(201)
	await checkGroup(admin, 'settings', [...GROUPS.settings.map((route) => `/${route}`)])
	await close()
})

test('Store Admin’s catalog pages, with variants, images, a collection and a discount code, have no serious accessibility violations at either size', async ({
	browser,
}) => {
	test.setTimeout(240_000)
	const { admin, close } = await asAdmin(browser, true, '/admin')
	const id = randomUUID().slice(0, 8)
	const collection = await admin.request.post('/admin/collections', {
		form: { title: `Axe ${id}`, slug: `axe-${id}`, description: '' },
		headers: { Origin: serverOrigin() },
		maxRedirects: 0,
	})
	expect(collection.status()).toBe(302)
	const code = `AXE${id.toUpperCase()}`
	const discount = await admin.request.post('/admin/discounts/new', {
		form: { code, kind: 'percentage', value: '10', minimumSubtotal: '', startsAt: '', endsAt: '', usageLimit: '100', active: 'yes' },
		headers: { Origin: serverOrigin() },
		maxRedirects: 0,
	})
	expect(discount.status()).toBe(302)
	const details = [
		// The demo socks: three sizes and an image.
		await linkIn(admin, '/admin/products', 'Merino wool socks', 'a[href^="/admin/products/"]'),
		await linkIn(admin, '/admin/collections', `Axe ${id}`, 'a[href^="/admin/collections/"]'),
		await linkIn(admin, '/admin/discounts', code, 'a[href^="/admin/discounts/"]'),
	]
	await checkGroup(admin, 'catalog', [...GROUPS.catalog.filter((route) => !route.includes(':')).map((route) => `/${route}`), ...details])
	await close()
})

test('Store Admin’s order and customer pages, with Orders of a customer and a guest, have no serious accessibility violations at either size', async ({
	browser,
}) => {
	test.setTimeout(240_000)
	// An Order of a guest and a customer with an Order, so every list and detail page has rows.
	const buyer = await browser.newPage()
	const number = await placeOrder(buyer, 'field-notebook', `guest-${randomUUID().slice(0, 8)}@example.com`)
	const customer = await signUp(buyer.request)
	await placeOrder(buyer, 'enamel-mug', customer.email)
	await buyer.close()
	const { admin, close } = await asAdmin(browser, true, '/admin')
	const details = [
		`/admin/orders/${number}`,
		`/admin/orders/${number}/packing-slip`,
		await linkIn(admin, '/admin/customers', customer.email, 'a[href^="/admin/customers/"]'),
		await linkIn(admin, '/admin/customers?show=guests', /guest-/, 'a[href^="/admin/customers/guest?"]'),
	]
	await checkGroup(admin, 'sales', ['/admin', '/admin/orders', '/admin/customers', '/admin/customers?show=guests', ...details])
	await close()
})

/** A sent campaign with two mails waiting, written as the campaign form writes it. */
async function seedCampaign() {
	const url = process.env.E2E_DATABASE === 'postgresql' ? testDatabaseUrl(process.env.E2E_PG_DATABASE ?? '') : `file:${process.env.E2E_DB_DIR}/store.db`
	const db = createDb(url)
	try {
		const { id: storeId } = await db.store.findUniqueOrThrow({ where: { handle: 'main' }, select: { id: true } })
		const campaign = await db.newsletterCampaign.create({
			data: { storeId, subject: 'Autumn scarves', body: 'New scarves.', recipients: 2, idempotencyKey: randomUUID(), createdByEmail: ADMIN_EMAIL },
			select: { id: true },
		})
		await db.outboxMail.createMany({
			data: ['one', 'two'].map((name) => ({
				storeId,
				kind: 'newsletter-campaign',
				subjectId: campaign.id,
				toAddress: `reader-${name}-${campaign.id}@example.com`,
				dedupeKey: `campaign:${campaign.id}:${name}`,
			})),
		})
	} finally {
		await db.$disconnect()
	}
}
