/** Money is an integer of minor units plus an ISO 4217 code; formatting happens here only. */
export function formatMoney(minor: number, currency: string, locale = 'en-US') {
	const format = new Intl.NumberFormat(locale, { style: 'currency', currency })
	const digits = format.resolvedOptions().maximumFractionDigits ?? 2
	return format.format(minor / 10 ** digits)
}
