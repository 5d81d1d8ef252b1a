/**
 * CSV as spreadsheets read it (RFC 4180: quoted cells, CRLF lines), with every cell made inert:
 * a cell a spreadsheet would take as a formula (one starting with = + - @, a tab or a carriage
 * return) gets a leading apostrophe, so an email or product title typed by anyone is only text.
 */
export function csvCell(value: string | number | boolean | null | undefined) {
	const text = value === null || value === undefined ? '' : String(value)
	const inert = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
	return `"${inert.replaceAll('"', '""')}"`
}

/** One CSV line of `cells`, ending in CRLF. */
export function csvLine(cells: ReadonlyArray<string | number | boolean | null | undefined>) {
	return `${cells.map(csvCell).join(',')}\r\n`
}

/** Minor units as a plain decimal ("1234" → "12.34"): every currency a Store sells in has two digits. */
export function decimal(minor: number) {
	const sign = minor < 0 ? '-' : ''
	const whole = Math.abs(minor)
	return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`
}

/** A day as `YYYY-MM-DD` in UTC, only when it is a real calendar day ("2026-02-30" is not). */
export function parseDay(text: string): Date | null {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null
	const day = new Date(`${text}T00:00:00.000Z`)
	return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text ? null : day
}
