import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUDIT_PAGE_SIZE, auditRepository } from '../../app/audit/audit.server'
import { cartRepository } from '../../app/cart/cart.server'
import { adminProductsRepository } from '../../app/catalog/admin-products.server'
import { catalogRepository, forgetCatalog } from '../../app/catalog/catalog.server'
import { CATALOG_SORTS } from '../../app/catalog/sort'
import { adminCustomersRepository } from '../../app/customers/admin-customers.server'
import { engineOf } from '../../app/data/db.server'
import { timeKey } from '../../app/data/keyset'
import type { AdminViewer } from '../../app/data/viewer'
import { adminOrdersRepository } from '../../app/orders/admin-orders.server'
import { placeOrder } from '../../app/orders/checkout.server'
import { dashboardRepository } from '../../app/orders/dashboard.server'
import { seededAdminChecks } from '../../app/diagnostics/checks.server'
import { ensureOfflineConnection } from '../../app/payments/connections.server'
import { unverifiedScope } from '../../app/data/scope'
import { seedScale } from '../../scripts/lib/scale-seed'
import { COMMON_WORD, RARE_WORD } from '../../scripts/lib/scale-rows'
import { DETAILS, newGuest } from '../helpers/commerce'
import { PROVIDERS, openPrivateTestDatabase, signUpAdmin } from '../helpers/databases'
import { type Plan, pgPlansOf, plansOf } from '../helpers/query-plans'

/** Small enough for CI, large enough that PostgreSQL's planner, with statistics, prefers a walk where one is possible. */
const SIZE = { products: 600, orders: 6000, customers: 1200, seed: 5 }
const PAGE_SIZE_GUESS = 12

/** The tables that grow with the catalog, the sales and the customers. */
const GROWING = ['orders', 'order_lines', 'products', 'product_variants', 'users', 'audit_entries', 'provider_events', 'outbox_mail']

/** The table a SQLite plan line names, through the statement's aliases (`FROM "products" p`). */
function tableOf(line: string, sql: string) {
	const name = /^(?:SCAN|SEARCH) (?:main\.)?(\w+)/.exec(line)?.[1] ?? ''
	for (const match of sql.matchAll(/(?:FROM|JOIN)\s+(?:`main`\.)?[`"]?(\w+)[`"]?(?:\s+(?:AS\s+)?(\w+))?/gi)) {
		if (match[2] === name) return match[1]!
	}
	return name
}

/**
 * The columns a statement's WHERE compares with `=` or `IN` beyond the Store, a status and a role
 * (SQLite plan lines name those an index consumed; any other is checked row by row).
 */
function filteredBeyondStore(sql: string) {
	const where = sql.slice(sql.search(/\bWHERE\b/i))
	const columns = [...where.matchAll(/[`"](\w+)[`"]\s*(?:=|IN\b)/gi)].map((match) => match[1]!)
	return columns.filter((column) => !['storeId', 'status', 'role'].includes(column))
}

/**
 * A statement that reads every row of a growing table, or every row of the Store in one: a scan,
 * or a search on the Store (and a status or role) alone that must then sort, add up, filter by a
 * substring or by another column (one Order's activity found by walking the Store's whole log in
 * time order), or return them all.
 */
export function fullReads(plans: Plan[], engine: 'sqlite' | 'postgresql') {
	return plans.flatMap(({ sql, plan }) =>
		plan
			.filter((line) => {
				if (engine === 'postgresql') {
					const table = / on (\w+)$/.exec(line)?.[1] ?? ''
					return GROWING.includes(table) && /^Seq Scan/.test(line)
				}
				if (!GROWING.includes(tableOf(line, sql))) return false
				if (/^SCAN\b/.test(line) && !/VIRTUAL TABLE/.test(line)) return true
				const storeWide = /USING (?:COVERING )?INDEX \S+ \(storeId=\?(?: AND (?:status|role)=\?)?\)$/.test(line)
				// Bounded only when rows come in the index's order up to a limit (Prisma writes a LIMIT
				// on lookups by id too, so a LIMIT alone bounds nothing).
				const everyRow =
					plan.some((l) => /USE TEMP B-TREE FOR ORDER BY/.test(l)) ||
					/\b(?:COUNT|SUM)\(|GROUP BY|\bLIKE\b/i.test(sql) ||
					!/ORDER BY[\s\S]*\bLIMIT\b/i.test(sql) ||
					filteredBeyondStore(sql).length > 0
				return storeWide && everyRow
			})
			.map((line) => `${line} :: ${sql.replace(/\s+/g, ' ').slice(0, 300)}`),
	)
}

/**
 * Statements that sort rows themselves rather than read them in an index's order: SQLite's temp
 * B-tree (for all of the ORDER BY, or its last terms only, which on a deep page sorts every row
 * it skips), PostgreSQL's Sort and Incremental Sort.
 */
export function sorts(plans: Plan[], engine: 'sqlite' | 'postgresql') {
	const sorting = engine === 'postgresql' ? /^(?:Incremental )?Sort\b/ : /USE TEMP B-TREE FOR .*ORDER BY/
	return plans.flatMap(({ sql, plan }) => plan.filter((line) => sorting.test(line)).map((line) => `${line} :: ${sql.replace(/\s+/g, ' ').slice(0, 300)}`))
}

describe.each(PROVIDERS)('the pages of a store of real size read no growing table whole, on %s', (provider) => {
	let t: Awaited<ReturnType<typeof openPrivateTestDatabase>>
	let admin: AdminViewer
	let variantSlug = ''
	let productId = ''

	beforeAll(async () => {
		t = await openPrivateTestDatabase(provider)
		const connection = await ensureOfflineConnection(unverifiedScope(t.db, t.storeId))
		const signedUp = await signUpAdmin(t)
		admin = signedUp.viewer
		await seedScale(
			{ db: t.db, storeId: t.storeId, connectionId: connection.id, admin: { id: signedUp.userId, email: signedUp.email }, imageKeys: ['a', 'b', 'c'] },
			SIZE,
		)
		// PostgreSQL plans from statistics: gather them, as autovacuum would after a day of sales.
		if (provider === 'postgresql') await t.db.$executeRawUnsafe('ANALYZE')
		productId = (await t.db.product.findFirstOrThrow({ where: { storeId: t.storeId, status: 'active', optionNames: '[]' }, select: { id: true } })).id
		const withVariants = await t.db.product.findFirstOrThrow({
			where: { storeId: t.storeId, status: 'active', optionNames: { not: '[]' } },
			select: { slug: true, id: true },
		})
		variantSlug = withVariants.slug
	}, 600_000)
	afterAll(() => t?.close())

	const plans = (work: () => Promise<unknown>) => (provider === 'postgresql' ? pgPlansOf(t.url, work) : plansOf(t.db, work))
	const expectNoFullReads = async (work: () => Promise<unknown>) => {
		const seen = await plans(work)
		expect(seen.length).toBeGreaterThan(0)
		expect(fullReads(seen, engineOf(t.db))).toEqual([])
	}

	it('the catalog in every sort, first and last page, a product with variants, a collection and search [R139]', async () => {
		const guest = newGuest(t.storeId)
		const catalog = catalogRepository(t.db, guest)
		const lastPage = Math.ceil((SIZE.products * 0.9) / PAGE_SIZE_GUESS)
		await expectNoFullReads(async () => {
			for (const sort of CATALOG_SORTS) {
				forgetCatalog()
				expect((await catalog.page({ sort })).products.length).toBeGreaterThan(0)
				forgetCatalog()
				await catalog.page({ sort, page: lastPage })
			}
			// Past the last page: an empty page with its pager, not an error.
			forgetCatalog()
			expect(await catalog.page({ page: 100_000 })).toMatchObject({ products: [], page: 100_000 })
			forgetCatalog()
			expect((await catalog.bySlug(variantSlug))?.variants.length).toBeGreaterThan(1)
			forgetCatalog()
			expect((await catalog.collection('collection-1'))?.products.length).toBeGreaterThan(0)
			forgetCatalog()
			await catalog.collection('collection-1', { page: 20 })
			forgetCatalog()
			expect((await catalog.search({ terms: [COMMON_WORD] })).total).toBeGreaterThan(10)
			expect((await catalog.search({ terms: [RARE_WORD] })).total).toBeGreaterThan(0)
		})
	})

	/**
	 * On PostgreSQL a deep page is left to the planner: skipping most of the active Products, it
	 * may rightly sort them (a top-N sort of rows it reads anyway) rather than walk the index.
	 */
	it('the catalog in every sort comes in index order: first pages, and deep ones on SQLite [R139]', async () => {
		const catalog = catalogRepository(t.db, newGuest(t.storeId))
		const pages = provider === 'sqlite' ? [1, Math.ceil((SIZE.products * 0.8) / PAGE_SIZE_GUESS)] : [1]
		const seen = await plans(async () => {
			for (const sort of CATALOG_SORTS) {
				for (const page of pages) {
					forgetCatalog()
					expect((await catalog.page({ sort, page })).products.length).toBeGreaterThan(0)
				}
			}
		})
		const listings = seen.filter(({ sql }) => /FROM\s+(?:[`"]?\w+[`"]?\.)?[`"]?products\b/i.test(sql) && /ORDER BY/i.test(sql))
		expect(listings.length).toBeGreaterThanOrEqual(CATALOG_SORTS.length * pages.length)
		expect(sorts(listings, engineOf(t.db))).toEqual([])
	})

	it("Store Admin's customer search and low-stock list read through their own indexes [R139]", async () => {
		const customers = adminCustomersRepository(t.db, admin)
		const seen = await plans(async () => {
			expect((await customers.page({ query: 'ada' })).total).toBeGreaterThan(10)
			await customers.page({ query: 'ada', page: 3 })
			expect((await customers.page({ query: 'zzyzx' })).total).toBe(0)
			expect((await adminProductsRepository(t.db, admin).lowStock(5)).count).toBeGreaterThan(0)
		})
		expect(fullReads(seen, engineOf(t.db))).toEqual([])
		// Dropping an index leaves PostgreSQL another one to walk (no Seq Scan): name the ones meant.
		const used = seen.flatMap(({ plan }) => plan).join('\n')
		expect(used).toMatch(provider === 'sqlite' ? /customer_search VIRTUAL TABLE/ : /using users_search_idx/)
		expect(used).toMatch(/product_variants_storeId_stock_productId_idx/)
	})

	it("Store Admin's Order search reads its own index, newest first, and stops at its cap [R144]", async () => {
		const orders = adminOrdersRepository(t.db, admin)
		const seen = await plans(async () => {
			// A word in every guest's email, a name, one within a status, a number, and a word no Order has.
			expect(await orders.page({ query: 'example' })).toMatchObject({ more: true })
			expect((await orders.page({ query: 'ada' })).total).toBeGreaterThan(0)
			await orders.page({ query: 'guest', status: 'fulfilled' })
			expect((await orders.page({ query: '1500' })).orders.map((order) => order.number)).toContain(1500)
			expect(await orders.page({ query: 'zzyzx' })).toMatchObject({ total: 0, more: false })
		})
		expect(fullReads(seen, engineOf(t.db))).toEqual([])
		const used = seen.flatMap(({ plan }) => plan).join('\n')
		expect(used).toMatch(provider === 'sqlite' ? /order_search VIRTUAL TABLE/ : /orders_search_idx/)
	})

	it("Store Admin's guest buyers come from their kept rows in index order, and one buyer from their own Orders [R129]", async () => {
		const customers = adminCustomersRepository(t.db, admin)
		const seen = await plans(async () => {
			const first = await customers.guests({})
			expect(first.total).toBeGreaterThan(100)
			await customers.guests({ page: 5 })
			expect((await customers.guest(first.guests[0]!.email)).orders.length).toBeGreaterThan(0)
		})
		expect(fullReads(seen, engineOf(t.db))).toEqual([])
		const lists = seen.filter(({ sql }) => /guest_buyers[\s\S]*ORDER BY/i.test(sql))
		expect(lists.length).toBeGreaterThanOrEqual(2)
		expect(sorts(lists, engineOf(t.db))).toEqual([])
		const used = seen.flatMap(({ plan }) => plan).join('\n')
		expect(used).toMatch(/orders_storeId_email_createdAt_idx/)
	})

	it("Store Admin's product search reads the title index and the slug key, never every product [R145]", async () => {
		const products = adminProductsRepository(t.db, admin)
		const seen = await plans(async () => {
			expect((await products.page({ query: COMMON_WORD })).total).toBeGreaterThan(20)
			await products.page({ query: COMMON_WORD, page: 3 })
			await products.page({ query: COMMON_WORD, status: 'draft' })
			// A word of descriptions only: none of the titles has it.
			expect(await products.page({ query: RARE_WORD })).toMatchObject({ total: 0, more: false })
		})
		expect(fullReads(seen, engineOf(t.db))).toEqual([])
		const used = seen.flatMap(({ plan }) => plan).join('\n')
		expect(used).toMatch(provider === 'sqlite' ? /product_search VIRTUAL TABLE/ : /products_title_search_idx/)
	})

	it('keeps no pending list in the search indexes, which every search would read whole [R139]', async () => {
		if (provider === 'sqlite') {
			// FTS5 merges as it writes; its customer index holds the first letters of every word.
			const prefixes = async (name: string) =>
				(await t.db.$queryRawUnsafe<Array<{ sql: string }>>(`SELECT sql FROM sqlite_master WHERE name = ?`, name))[0]?.sql.match(/prefix\s*=\s*'([\d ]+)'/)?.[1]
			expect(await prefixes('customer_search')).toBe('1 2 3')
			// A word in every Order's email (a mail provider's name) is read through its own prefix.
			expect(await prefixes('order_search')).toBe('1 2 3 4 5 6 7 8 9 10')
			return
		}
		const options = await t.db.$queryRawUnsafe<Array<{ relname: string; reloptions: string[] | null }>>(
			`SELECT relname, reloptions FROM pg_class WHERE relname IN ('orders_search_idx', 'products_search_idx', 'products_title_search_idx', 'users_search_idx') ORDER BY relname`,
		)
		expect(options).toEqual([
			{ relname: 'orders_search_idx', reloptions: ['fastupdate=off'] },
			{ relname: 'products_search_idx', reloptions: ['fastupdate=off'] },
			{ relname: 'products_title_search_idx', reloptions: ['fastupdate=off'] },
			{ relname: 'users_search_idx', reloptions: ['fastupdate=off'] },
		])
	})

	it("Store Admin's products and customers come in index order: first pages, and late ones on SQLite [R139]", async () => {
		// As for the catalog's deep pages, PostgreSQL may rightly sort rows a late page reads anyway.
		const pages = provider === 'sqlite' ? [1, 25] : [1]
		const seen = await plans(async () => {
			for (const page of pages) {
				expect((await adminProductsRepository(t.db, admin).page({ page })).products.length).toBeGreaterThan(0)
				expect((await adminCustomersRepository(t.db, admin).page({ page })).customers.length).toBeGreaterThan(0)
			}
		})
		const lists = seen.filter(({ sql }) => /FROM\s+(?:[`"]?\w+[`"]?\.)?[`"]?(?:products|users)\b[\s\S]*ORDER BY/i.test(sql))
		expect(lists.length).toBeGreaterThanOrEqual(2 * pages.length)
		expect(sorts(lists, engineOf(t.db))).toEqual([])
	})

	it("Store Admin's Orders and activity deep in the history: read from the page's key in index order, skipping nothing [R142]", async () => {
		const orders = adminOrdersRepository(t.db, admin)
		const newest = (await orders.page({})).orders[0]!.number
		const deep = String(newest - Math.floor(SIZE.orders * 0.8))
		const entries = (skip: number, take: number) =>
			t.db.auditEntry.findMany({
				where: { storeId: t.storeId },
				orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
				skip,
				take,
				select: { id: true, createdAt: true },
			})
		const depth = Math.floor((await t.db.auditEntry.count({ where: { storeId: t.storeId } })) * 0.8)
		const deepEntry = (await entries(depth, 1))[0]!
		const below = await entries(depth + 1, AUDIT_PAGE_SIZE)
		expect(below.length).toBe(AUDIT_PAGE_SIZE)
		const seen = await plans(async () => {
			const page = await orders.page({ cursor: { before: deep } })
			expect(page.orders.map((o) => o.number)).toEqual(Array.from({ length: 20 }, (_, i) => Number(deep) - 1 - i))
			expect(page).toMatchObject({ newer: String(Number(deep) - 1), older: String(Number(deep) - 20) })
			const newer = await orders.page({ cursor: { after: deep } })
			expect(newer.orders.map((o) => o.number)).toEqual(Array.from({ length: 20 }, (_, i) => Number(deep) + 20 - i))
			const fulfilled = await orders.page({ status: 'fulfilled', cursor: { before: deep } })
			expect(fulfilled.orders.length).toBe(20)
			expect(fulfilled.orders.every((o) => o.status === 'fulfilled' && o.number < Number(deep))).toBe(true)
			await orders.page({ status: 'fulfilled', cursor: { after: deep } })
			// The activity log likewise, from the key of an entry deep in it (its time and id).
			const log = auditRepository(t.db, admin)
			const older = await log.page({ cursor: { before: timeKey(deepEntry.createdAt, deepEntry.id) } })
			expect(older.entries.map((e) => e.id)).toEqual(below.map((e) => e.id))
			expect(older.newer).toBe(timeKey(below[0]!.createdAt, below[0]!.id))
			expect((await log.page({ cursor: { after: older.newer! } })).entries.at(-1)?.id).toBe(deepEntry.id)
		})
		const lists = seen.filter(({ sql }) => /FROM\s+(?:[`"]?\w+[`"]?\.)?[`"]?(?:orders|audit_entries)\b[\s\S]*ORDER BY/i.test(sql))
		expect(lists.length).toBeGreaterThanOrEqual(6)
		// Prisma writes an OFFSET on every page (its value last): a keyset page skips no row.
		const skipped = lists.filter(({ sql, args }) => /\bOFFSET\s+(?:\?|\$\d+)\s*$/i.test(sql) && Number(args.at(-1)) !== 0)
		expect(lists.every(({ sql }) => !/\bOFFSET\b/i.test(sql) || /\bOFFSET\s+(?:\?|\$\d+)\s*$/i.test(sql))).toBe(true)
		expect(skipped.map(({ sql, args }) => `${sql} :: ${JSON.stringify(args)}`)).toEqual([])
		expect(sorts(lists, engineOf(t.db))).toEqual([])
		expect(fullReads(lists, engineOf(t.db))).toEqual([])
	})

	it('a cart add and a checkout [R139]', async () => {
		const guest = newGuest(t.storeId)
		await expectNoFullReads(async () => {
			await cartRepository(t.db, guest).add({ productId, quantity: 1 })
			await placeOrder({ db: t.db, viewer: guest, details: DETAILS, connectionHandle: 'offline', idempotencyKey: randomUUID() })
		})
	})

	it("Store Admin's overview (its checklist too), Orders (filtered, first and a late page, one Order), customers, products and activity [R139]", async () => {
		const orders = adminOrdersRepository(t.db, admin)
		await expectNoFullReads(async () => {
			await dashboardRepository(t.db, admin).overview()
			// The overview's pre-exposure checklist looks up the admin accounts on every visit.
			expect((await seededAdminChecks(t.db)).length).toBeGreaterThan(0)
			expect((await orders.page({})).total).toBeGreaterThanOrEqual(SIZE.orders)
			await orders.page({ cursor: { before: '2000' } })
			await orders.page({ status: 'fulfilled' })
			await orders.page({ status: 'fulfilled', cursor: { before: '2000' } })
			await orders.page({ status: 'awaiting_payment' })
			await orders.byNumber(2500)
			expect((await adminCustomersRepository(t.db, admin).page({})).total).toBeGreaterThanOrEqual(SIZE.customers)
			await adminCustomersRepository(t.db, admin).page({ page: 50 })
			await adminProductsRepository(t.db, admin).page({})
			await auditRepository(t.db, admin).page()
		})
	})
})
