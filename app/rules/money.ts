/** Money is an integer of minor units plus an ISO 4217 code; formatting happens here only. */
export function formatMoney(minor: number, currency: string, locale = 'en-US') {
	const { format, digits } = formatterFor(locale, currency)
	return format.format(minor / 10 ** digits)
}

// Building an Intl.NumberFormat costs far more than using one (it was 4 % of a
// catalog page's CPU); a store has one locale and a handful of currencies.
const formatters = new Map<string, { format: Intl.NumberFormat; digits: number }>()

function formatterFor(locale: string, currency: string) {
	const key = `${locale}\u0000${currency}`
	let entry = formatters.get(key)
	if (!entry) {
		const format = new Intl.NumberFormat(locale, { style: 'currency', currency })
		entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 }
		if (formatters.size >= 64) formatters.clear()
		formatters.set(key, entry)
	}
	return entry
}
