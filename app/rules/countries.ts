/**
 * Countries as shipping zones, tax rates and checkout name them: ISO 3166-1 alpha-2 codes, upper
 * case. A code is known when the platform's region names have a name for it ("DE" is Germany;
 * "XX" and "EU" are not countries).
 */
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })

/** Codes that are well-formed and named, but not a country one ships to (the United Kingdom is GB). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ', 'XA', 'XB', 'UK'])

export function isCountryCode(code: string) {
	if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false
	return regionNames.of(code) !== code
}

export function countryName(code: string) {
	return regionNames.of(code) ?? code
}

/** The most countries one zone may list. */
export const MAX_ZONE_COUNTRIES = 250

/**
 * "us, CA ,de" → ["US", "CA", "DE"]: each code once, in the order given, or the codes that are not
 * countries, for the form to name.
 */
export function parseCountries(text: string): { ok: true; countries: string[] } | { ok: false; unknown: string[] } {
	const codes = text
		.split(/[\s,;]+/)
		.map((code) => code.trim().toUpperCase())
		.filter(Boolean)
	const unknown = codes.filter((code) => !isCountryCode(code))
	if (unknown.length > 0 || codes.length === 0) return { ok: false, unknown }
	return { ok: true, countries: [...new Set(codes)] }
}

let everyCountry: Array<{ code: string; name: string }> | undefined

/** Every code `isCountryCode` accepts, with its English name, sorted by name (built once). */
export function allCountries() {
	everyCountry ??= Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)))
		.filter(isCountryCode)
		.map((code) => ({ code, name: countryName(code) }))
		.sort((a, b) => a.name.localeCompare(b.name, 'en'))
	return everyCountry
}

/**
 * The checkout's country list: the countries `shipsTo` first (by name), then every other
 * country, so a buyer of a shop that ships to three countries finds theirs at the top.
 */
export function countryChoices(shipsTo: readonly string[]) {
	const shipped = new Set(shipsTo)
	const all = allCountries()
	return { shipped: all.filter((c) => shipped.has(c.code)), others: all.filter((c) => !shipped.has(c.code)) }
}
