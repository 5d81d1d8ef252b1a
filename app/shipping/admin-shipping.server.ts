import { auditEntry } from '../audit/audit.server'
import { MAX_ORDER_TOTAL_MINOR } from '../rules/limits'
import { type Db, transaction } from '../data/db.server'
import { viewerScope } from '../data/scope'
import { isUniqueViolation } from '../data/unique-violation'
import type { AdminViewer } from '../data/viewer'
import { DomainError, notFound } from '../errors.server'
import { MAX_TAX_BASIS_POINTS } from '../rules/totals'
import { MAX_ZONE_COUNTRIES, isCountryCode } from '../rules/countries'
import type { AuditAction } from '../rules/audit-actions'
import { shippingTable, splitCountries } from './shipping.server'

export type ZoneInput = { name: string; countries: string[] }
export type RateInput = { name: string; priceMinor: number; freeOverMinor: number | null }

/** A zone's or a rate's name: 1 to 60 characters on one line, no spaces at either end. */
const NAME = /^[^\u0000-\u001f\u007f\u2028\u2029]{1,60}$/

function checkName(name: string, field: string) {
	if (!NAME.test(name) || name.trim() !== name) throw new DomainError(400, 'Use a name of 1 to 60 characters on one line.', field)
}

/** Money in minor units: a whole number from `min` to what one Order may total (docs/decisions/030). */
function checkMoney(minor: number, field: string, min: 0 | 1) {
	if (!Number.isSafeInteger(minor) || minor < min || minor > MAX_ORDER_TOTAL_MINOR) {
		throw new DomainError(400, min > 0 ? 'Enter an amount above zero, at most 999,999.99.' : 'Enter an amount from 0 to 999,999.99.', field)
	}
}

/** At most this many unknown codes are named back, each cut short: the message echoes input. */
const named = (codes: string[]) =>
	codes
		.slice(0, 5)
		.map((code) => code.slice(0, 12))
		.join(', ')

function checkCountries(countries: string[]) {
	const unknown = countries.filter((code) => !isCountryCode(code))
	if (unknown.length > 0) throw new DomainError(400, `Not a country code: ${named(unknown)}.`, 'countries')
	const codes = [...new Set(countries)]
	if (codes.length === 0) throw new DomainError(400, 'List at least one country code.', 'countries')
	if (codes.length > MAX_ZONE_COUNTRIES) throw new DomainError(400, `A zone lists at most ${MAX_ZONE_COUNTRIES} countries.`, 'countries')
	return codes
}

/**
 * [R119] Shipping zones, their rates and tax rates as Store Admin edits them: only the admin's
 * Store (another Store's id is not found), bounded values checked here and not only by the form, a
 * country in one zone at most (checkout must find one set of rates for it), and each change with
 * its activity-log row in the same transaction. Checkout reads them in its own (shipping.server.ts).
 */
export function adminShippingRepository(db: Db, admin: AdminViewer) {
	const storeId = admin.storeId
	const audit = (tx: Db, action: AuditAction, detail: Record<string, unknown>) =>
		auditEntry(tx, admin, { action, targetType: 'store', targetId: storeId, detail })

	return {
		table: () => shippingTable(viewerScope(db, admin)),

		async addZone(input: ZoneInput) {
			checkName(input.name, 'name')
			const codes = checkCountries(input.countries)
			try {
				return await transaction(db, async (tx) => {
					// The Store row's lock first: two admins adding zones at once take turns, and the
					// second sees the first's countries (PostgreSQL reads committed rows per statement).
					await tx.store.update({ where: { id: storeId }, data: { updatedAt: new Date() }, select: { id: true } })
					for (const zone of await tx.shippingZone.findMany({ where: { storeId }, select: { name: true, countries: true } })) {
						const taken = splitCountries(zone.countries).filter((code) => codes.includes(code))
						if (taken.length > 0)
							throw new DomainError(409, `${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} already in the zone ${zone.name}.`, 'countries')
					}
					const zone = await tx.shippingZone.create({ data: { storeId, name: input.name, countries: codes.join(',') }, select: { id: true } })
					await audit(tx, 'shipping.zone.create', { zoneId: zone.id, name: input.name, countries: codes })
					return zone
				})
			} catch (error) {
				if (isUniqueViolation(error)) throw new DomainError(409, 'Another zone already has this name.', 'name')
				throw error
			}
		},

		/** Removes the zone and its rates. */
		async removeZone(id: string) {
			await transaction(db, async (tx) => {
				const zone = await tx.shippingZone.findFirst({ where: { id, storeId }, select: { id: true, name: true } })
				if (!zone) throw notFound('That shipping zone')
				await tx.shippingZone.delete({ where: { id: zone.id } })
				await audit(tx, 'shipping.zone.delete', { zoneId: zone.id, name: zone.name })
			})
		},

		async addRate(zoneId: string, rate: RateInput) {
			checkName(rate.name, 'rateName')
			checkMoney(rate.priceMinor, 'price', 0)
			if (rate.freeOverMinor !== null) checkMoney(rate.freeOverMinor, 'freeOver', 1)
			return transaction(db, async (tx) => {
				const zone = await tx.shippingZone.findFirst({ where: { id: zoneId, storeId }, select: { id: true, name: true } })
				if (!zone) throw notFound('That shipping zone')
				const created = await tx.shippingRate.create({
					data: { storeId, zoneId: zone.id, name: rate.name, priceMinor: rate.priceMinor, freeOverMinor: rate.freeOverMinor },
					select: { id: true },
				})
				await audit(tx, 'shipping.rate.create', { zoneId: zone.id, zone: zone.name, rateId: created.id, ...rate })
				return created
			})
		},

		async removeRate(id: string) {
			await transaction(db, async (tx) => {
				const rate = await tx.shippingRate.findFirst({ where: { id, storeId }, select: { id: true, name: true, zone: { select: { name: true } } } })
				if (!rate) throw notFound('That shipping rate')
				await tx.shippingRate.delete({ where: { id: rate.id } })
				await audit(tx, 'shipping.rate.delete', { zone: rate.zone.name, rateId: rate.id, name: rate.name })
			})
		},

		/** Sets (or replaces) a country's tax rate, in hundredths of a percent (1900 is 19%). */
		async setTaxRate(country: string, rateBasisPoints: number) {
			if (!isCountryCode(country)) throw new DomainError(400, 'Enter a two-letter country code, like DE.', 'country')
			if (!Number.isInteger(rateBasisPoints) || rateBasisPoints < 0 || rateBasisPoints > MAX_TAX_BASIS_POINTS) {
				throw new DomainError(400, 'Enter a rate from 0 to 100 percent.', 'rate')
			}
			await transaction(db, async (tx) => {
				await tx.taxRate.upsert({
					where: { storeId_country: { storeId, country } },
					create: { storeId, country, rateBasisPoints },
					update: { rateBasisPoints },
					select: { id: true },
				})
				await audit(tx, 'tax.rate.set', { country, rateBasisPoints })
			})
		},

		async removeTaxRate(country: string) {
			await transaction(db, async (tx) => {
				const removed = await tx.taxRate.deleteMany({ where: { storeId, country } })
				if (removed.count === 0) throw notFound('That tax rate')
				await audit(tx, 'tax.rate.delete', { country })
			})
		},

		/** Whether the prices Store Admin enters include tax, or have it added at checkout. */
		async setPricesIncludeTax(pricesIncludeTax: boolean) {
			await transaction(db, async (tx) => {
				await tx.store.update({ where: { id: storeId }, data: { pricesIncludeTax }, select: { id: true } })
				await audit(tx, 'store.prices_include_tax', { pricesIncludeTax })
			})
		},
	}
}
