/**
 * The currencies a Store may sell in: ISO 4217 codes with two minor digits, because prices and
 * refunds are entered with two decimals (docs/decisions/044-store-currency.md). Chosen at
 * /admin/store before the first Order; fixed from then on [R118].
 */
export const STORE_CURRENCIES = [
	'USD',
	'EUR',
	'GBP',
	'CAD',
	'AUD',
	'NZD',
	'CHF',
	'SEK',
	'NOK',
	'DKK',
	'PLN',
	'CZK',
	'RON',
	'SGD',
	'HKD',
	'MXN',
	'BRL',
	'ZAR',
	'INR',
] as const

export type StoreCurrency = (typeof STORE_CURRENCIES)[number]

export const isStoreCurrency = (value: string): value is StoreCurrency => (STORE_CURRENCIES as readonly string[]).includes(value)
