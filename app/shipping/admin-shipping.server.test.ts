/**
 * Store Admin's shipping zones, rates and tax rates [R119], on both engines: what it saves is what
 * checkout reads (shippingTable); bad values, a country in two zones, a zone name twice and another
 * Store's ids are refused with nothing changed; every change is in the activity log. Each test has
 * a Store of its own: zones change every checkout of their Store, and other test files check out
 * in the runtime Store of the same database.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROVIDERS, type TestDatabase, openTestDatabase, signUpCustomer } from '../../tests/helpers/databases'
import type { AdminViewer } from '../data/viewer'
import { adminShippingRepository } from './admin-shipping.server'

describe.each(PROVIDERS)('shipping and tax settings on %s', (provider) => {
	let t: TestDatabase
	let owner: { userId: string; email: string }
	const stores: string[] = []

	beforeAll(async () => {
		t = await openTestDatabase(provider)
		owner = await signUpCustomer(t.auth)
	})
	afterAll(async () => {
		// Zones, rates, tax rates and audit rows go with their Store.
		await t.db.store.deleteMany({ where: { id: { in: stores } } })
		await t.db.$disconnect()
	})

	async function newStore() {
		const { id: storeId } = await t.db.store.create({ data: { handle: `ship-${randomUUID()}`, name: 'Shipping admin' }, select: { id: true } })
		stores.push(storeId)
		const admin: AdminViewer = { kind: 'user', role: 'admin', storeId, userId: owner.userId, email: owner.email, name: 'Owner' }
		return { storeId, repo: adminShippingRepository(t.db, admin) }
	}

	const auditOf = (storeId: string) =>
		t.db.auditEntry.findMany({
			where: { storeId },
			orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
			select: { action: true, actorId: true, targetType: true, targetId: true, detail: true },
		})

	it('saves zones, rates, tax rates and the tax setting as checkout reads them, each change in the activity log [R119]', async () => {
		const { storeId, repo } = await newStore()
		const zone = await repo.addZone({ name: 'Europe', countries: ['DE', 'FR', 'DE'] })
		const standard = await repo.addRate(zone.id, { name: 'Standard', priceMinor: 495, freeOverMinor: 5000 })
		const pickUp = await repo.addRate(zone.id, { name: 'Pick-up', priceMinor: 0, freeOverMinor: null })
		await repo.setTaxRate('DE', 1900)
		await repo.setTaxRate('DE', 750)
		await repo.setTaxRate('FR', 2000)
		await repo.setPricesIncludeTax(true)
		expect(await repo.table()).toEqual({
			zones: [
				{
					id: zone.id,
					name: 'Europe',
					countries: ['DE', 'FR'],
					rates: [
						{ id: pickUp.id, name: 'Pick-up', priceMinor: 0, freeOverMinor: null },
						{ id: standard.id, name: 'Standard', priceMinor: 495, freeOverMinor: 5000 },
					],
				},
			],
			taxRates: { DE: 750, FR: 2000 },
			pricesIncludeTax: true,
		})

		await repo.removeRate(pickUp.id)
		await repo.removeTaxRate('FR')
		await repo.removeZone(zone.id)
		expect(await repo.table()).toEqual({ zones: [], taxRates: { DE: 750 }, pricesIncludeTax: true })
		expect(await t.db.shippingRate.count({ where: { storeId } }), 'a zone goes with its rates').toBe(0)

		const entries = await auditOf(storeId)
		expect(entries.map((entry) => entry.action)).toEqual([
			'shipping.zone.create',
			'shipping.rate.create',
			'shipping.rate.create',
			'tax.rate.set',
			'tax.rate.set',
			'tax.rate.set',
			'store.prices_include_tax',
			'shipping.rate.delete',
			'tax.rate.delete',
			'shipping.zone.delete',
		])
		for (const entry of entries) expect(entry).toMatchObject({ actorId: owner.userId, targetType: 'store', targetId: storeId })
		expect(JSON.parse(entries[0]?.detail ?? '{}')).toEqual({ zoneId: zone.id, name: 'Europe', countries: ['DE', 'FR'] })
		expect(JSON.parse(entries[4]?.detail ?? '{}')).toEqual({ country: 'DE', rateBasisPoints: 750 })
	})

	it('refuses bad values with the field to fix, changing nothing and logging nothing [R119]', async () => {
		const { storeId, repo } = await newStore()
		const zone = await repo.addZone({ name: 'Europe', countries: ['DE'] })
		await repo.setTaxRate('DE', 1900)
		const before = await repo.table()
		const refusals: Array<[string, () => Promise<unknown>, number, string]> = [
			['unknown country', () => repo.addZone({ name: 'Elsewhere', countries: ['XX'] }), 400, 'countries'],
			['not a country (the United Kingdom is GB)', () => repo.addZone({ name: 'Elsewhere', countries: ['UK'] }), 400, 'countries'],
			['lower case', () => repo.addZone({ name: 'Elsewhere', countries: ['nl'] }), 400, 'countries'],
			['no country', () => repo.addZone({ name: 'Elsewhere', countries: [] }), 400, 'countries'],
			['a country already in another zone', () => repo.addZone({ name: 'Elsewhere', countries: ['FR', 'DE'] }), 409, 'countries'],
			['a zone name twice', () => repo.addZone({ name: 'Europe', countries: ['NL'] }), 409, 'name'],
			['a 61-character zone name', () => repo.addZone({ name: 'x'.repeat(61), countries: ['NL'] }), 400, 'name'],
			['an empty zone name', () => repo.addZone({ name: '', countries: ['NL'] }), 400, 'name'],
			['a zone name on two lines', () => repo.addZone({ name: 'Two\nlines', countries: ['NL'] }), 400, 'name'],
			['a negative price', () => repo.addRate(zone.id, { name: 'Standard', priceMinor: -1, freeOverMinor: null }), 400, 'price'],
			['a fractional price', () => repo.addRate(zone.id, { name: 'Standard', priceMinor: 1.5, freeOverMinor: null }), 400, 'price'],
			['a price over the Order limit', () => repo.addRate(zone.id, { name: 'Standard', priceMinor: 100_000_000, freeOverMinor: null }), 400, 'price'],
			['free over nothing', () => repo.addRate(zone.id, { name: 'Standard', priceMinor: 495, freeOverMinor: 0 }), 400, 'freeOver'],
			['free over a negative amount', () => repo.addRate(zone.id, { name: 'Standard', priceMinor: 495, freeOverMinor: -100 }), 400, 'freeOver'],
			['an empty rate name', () => repo.addRate(zone.id, { name: '', priceMinor: 495, freeOverMinor: null }), 400, 'rateName'],
			['a 61-character rate name', () => repo.addRate(zone.id, { name: 'r'.repeat(61), priceMinor: 495, freeOverMinor: null }), 400, 'rateName'],
			['a negative tax rate', () => repo.setTaxRate('DE', -1), 400, 'rate'],
			['a tax rate over 100%', () => repo.setTaxRate('DE', 10_001), 400, 'rate'],
			['a fraction of a basis point', () => repo.setTaxRate('DE', 19.5), 400, 'rate'],
			['a tax rate of an unknown country', () => repo.setTaxRate('XX', 1900), 400, 'country'],
			['a lower-case country', () => repo.setTaxRate('de', 1900), 400, 'country'],
		]
		for (const [what, attempt, status, field] of refusals) await expect(attempt(), what).rejects.toMatchObject({ name: 'DomainError', status, field })
		await expect(repo.addZone({ name: 'Elsewhere', countries: ['FR', 'DE'] })).rejects.toThrow('DE is already in the zone Europe.')
		expect(await repo.table()).toEqual(before)
		expect((await auditOf(storeId)).map((entry) => entry.action)).toEqual(['shipping.zone.create', 'tax.rate.set'])

		// The bounds themselves are allowed.
		await repo.setTaxRate('FR', 10_000)
		await repo.setTaxRate('NL', 0)
		await repo.addRate(zone.id, { name: 'r'.repeat(60), priceMinor: 99_999_999, freeOverMinor: 1 })
		expect((await repo.table()).taxRates).toEqual({ DE: 1900, FR: 10_000, NL: 0 })
	})

	it('puts a country in one zone only, even when two zones are added at once [R119]', async () => {
		const { repo } = await newStore()
		const results = await Promise.allSettled([
			repo.addZone({ name: `A ${randomUUID()}`, countries: ['US', 'CA'] }),
			repo.addZone({ name: `B ${randomUUID()}`, countries: ['MX', 'US'] }),
		])
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { status: 409, field: 'countries' } })
		const zones = (await repo.table()).zones
		expect(zones.flatMap((zone) => zone.countries).filter((code) => code === 'US')).toEqual(['US'])
	})

	it('finds nothing of another Store: its zone, rate and tax rate answer 404 and stay as they were [R119]', async () => {
		const mine = await newStore()
		const theirs = await newStore()
		const zone = await theirs.repo.addZone({ name: 'Theirs', countries: ['US'] })
		const rate = await theirs.repo.addRate(zone.id, { name: 'Ground', priceMinor: 800, freeOverMinor: null })
		await theirs.repo.setTaxRate('US', 800)
		const before = await theirs.repo.table()
		const logged = (await auditOf(theirs.storeId)).length

		await expect(mine.repo.addRate(zone.id, { name: 'Sneaky', priceMinor: 1, freeOverMinor: null })).rejects.toMatchObject({ status: 404 })
		await expect(mine.repo.removeRate(rate.id)).rejects.toMatchObject({ status: 404 })
		await expect(mine.repo.removeZone(zone.id)).rejects.toMatchObject({ status: 404 })
		await expect(mine.repo.removeTaxRate('US')).rejects.toMatchObject({ status: 404 })
		await expect(mine.repo.removeZone(randomUUID())).rejects.toMatchObject({ status: 404 })

		expect(await theirs.repo.table()).toEqual(before)
		expect(await auditOf(theirs.storeId)).toHaveLength(logged)
		expect(await auditOf(mine.storeId)).toEqual([])
		// The same country in a zone of each Store: one zone per country holds within a Store only.
		await mine.repo.addZone({ name: 'Theirs', countries: ['US'] })
		expect((await mine.repo.table()).zones.map((z) => z.name)).toEqual(['Theirs'])
	})
})
