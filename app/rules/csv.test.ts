import { describe, expect, it } from 'vitest'
import { csvCell, csvLine, decimal, parseDay } from './csv'

describe('CSV cells', () => {
	it('makes every cell a spreadsheet would run as a formula inert, and quotes every cell [R128]', () => {
		for (const formula of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=x', '\r=x', '=HYPERLINK("http://evil","x")']) {
			expect(csvCell(formula), JSON.stringify(formula)).toBe(`"'${formula.replaceAll('"', '""')}"`)
		}
		expect(csvCell('Ada "the" buyer')).toBe('"Ada ""the"" buyer"')
		expect(csvCell('a,b\r\nc')).toBe('"a,b\r\nc"')
		expect(csvCell(null)).toBe('""')
		expect(csvCell(1003)).toBe('"1003"')
		expect(csvLine(['a', '=b', 3])).toBe('"a","\'=b","3"\r\n')
	})

	it('writes money as plain decimals and reads only real calendar days [R128]', () => {
		expect(decimal(0)).toBe('0.00')
		expect(decimal(5)).toBe('0.05')
		expect(decimal(123456)).toBe('1234.56')
		expect(parseDay('2026-02-28')?.toISOString()).toBe('2026-02-28T00:00:00.000Z')
		for (const bad of ['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', '2026-01-01T00:00', 'yesterday', '']) expect(parseDay(bad), bad).toBeNull()
	})
})
