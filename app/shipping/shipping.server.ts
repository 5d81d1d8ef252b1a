import type { Db } from '../data/db.server'
import type { StoreScope } from '../data/scope'
import { DomainError } from '../errors.server'
import type { ShippingChoice } from '../rules/totals'
import { countryName } from '../rules/countries'

/** A zone as checkout offers it: its countries and rates, cheapest first. */
export type ShippingZoneView = {
	id: string
	name: string
	countries: string[]
	rates: Array<{ id: string; name: string; priceMinor: number; freeOverMinor: number | null }>
}

/** What checkout needs to price an Order before it is placed: public, never secret. */
export type ShippingTable = { zones: ShippingZoneView[]; taxRates: Record<string, number>; pricesIncludeTax: boolean }

export const splitCountries = (stored: string) => stored.split(',').filter(Boolean)

/** The Store's zones with their rates, its tax rates by country, and how prices are entered. */
export async function shippingTable({ db, storeId }: StoreScope): Promise<ShippingTable> {
	const [zones, taxRates, store] = await Promise.all([
		db.shippingZone.findMany({
			where: { storeId },
			orderBy: { name: 'asc' },
			select: {
				id: true,
				name: true,
				countries: true,
				rates: { orderBy: [{ priceMinor: 'asc' }, { name: 'asc' }], select: { id: true, name: true, priceMinor: true, freeOverMinor: true } },
			},
		}),
		db.taxRate.findMany({ where: { storeId }, select: { country: true, rateBasisPoints: true } }),
		db.store.findUniqueOrThrow({ where: { id: storeId }, select: { pricesIncludeTax: true } }),
	])
	return {
		zones: zones.map((zone) => ({ ...zone, countries: splitCountries(zone.countries) })),
		taxRates: Object.fromEntries(taxRates.map((rate) => [rate.country, rate.rateBasisPoints])),
		pricesIncludeTax: store.pricesIncludeTax,
	}
}

/**
 * The shipping and tax of an Order to `country`, read in checkout's transaction [R119]: the rate
 * the buyer chose, which must be one of this Store's rates for a zone that holds the country.
 * A Store with no zones ships everywhere at no cost; one with zones ships only to their
 * countries. The tax rate is the country's, or none.
 */
export async function shippingAndTax(
	tx: Pick<Db, 'shippingZone' | 'shippingRate' | '$queryRaw'>,
	storeId: string,
	{ country, rateId }: { country: string; rateId: string | undefined },
): Promise<{ shipping: ShippingChoice | null; taxRateBasisPoints: number }> {
	// Whether prices include tax is read with the Store's order counter (checkout.server.ts).
	// Whether the Store ships by zones and the country's tax rate in ONE statement: it runs inside
	// the checkout transaction, where every statement lengthens SQLite's hold of its writer lock.
	const [found] = await tx.$queryRaw<Array<{ zones: number | bigint; tax: number | bigint | null }>>`SELECT
		(SELECT COUNT(*) FROM "shipping_zones" WHERE "storeId" = ${storeId}) AS "zones",
		(SELECT "rateBasisPoints" FROM "tax_rates" WHERE "storeId" = ${storeId} AND "country" = ${country}) AS "tax"`
	const zones = Number(found?.zones ?? 0)
	const tax = found?.tax === null || found?.tax === undefined ? null : { rateBasisPoints: Number(found.tax) }
	let shipping: ShippingChoice | null = null
	if (zones > 0) {
		const notShipped = async () => {
			const anyZone = await tx.shippingZone.findMany({ where: { storeId }, select: { countries: true } })
			if (anyZone.some((zone) => splitCountries(zone.countries).includes(country))) return null
			return new DomainError(400, `This shop does not ship to ${countryName(country)}.`, 'country')
		}
		// Refusals only from here: a country no zone holds is named before a missing or wrong rate.
		if (!rateId) throw (await notShipped()) ?? new DomainError(400, 'Choose how to ship your order.', 'shippingRate')
		const rate = await tx.shippingRate.findFirst({
			where: { id: rateId, storeId },
			select: { name: true, priceMinor: true, freeOverMinor: true, zone: { select: { countries: true } } },
		})
		if (!rate) throw new DomainError(400, 'Choose one of the shipping options offered.', 'shippingRate')
		if (!splitCountries(rate.zone.countries).includes(country)) {
			throw (
				(await notShipped()) ??
				new DomainError(400, `${rate.name} does not ship to ${countryName(country)}: choose an option for your country.`, 'shippingRate')
			)
		}
		shipping = { name: rate.name, priceMinor: rate.priceMinor, freeOverMinor: rate.freeOverMinor }
	}
	return { shipping, taxRateBasisPoints: tax?.rateBasisPoints ?? 0 }
}
