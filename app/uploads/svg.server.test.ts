import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkSvg, remainingRisk } from './svg.server'

const corpus = (kind: 'clean' | 'hostile') =>
	readdirSync(`tests/fixtures/svg/${kind}`).map((name) => [name, readFileSync(`tests/fixtures/svg/${kind}/${name}`)] as const)

describe('SVG uploads [R34] (risky SVG content)', () => {
	it.each(corpus('hostile'))('never stores anything active or external from %s', async (_name, bytes) => {
		const verdict = await checkSvg(bytes)
		if (!verdict.ok) {
			expect(verdict.message.length).toBeGreaterThan(0)
			return
		}
		expect(remainingRisk(verdict.svg)).toBeNull()
		for (const marker of ['evil.example', 'alert', 'javascript', 'script', 'onload', 'ENTITY', 'passwd', 'foreignObject']) {
			expect(verdict.svg).not.toContain(marker)
		}
	})

	it('refuses DOCTYPE and entity declarations outright (XXE, entity expansion)', async () => {
		const verdict = await checkSvg(readFileSync('tests/fixtures/svg/hostile/xml-entities.svg'))
		expect(verdict).toMatchObject({ ok: false })
	})

	it('refuses a url() that points outside the file, even beside a local one', async () => {
		for (const name of ['fill-url-external.svg', 'fill-url-sneaky.svg', 'style-attr-url.svg']) {
			const verdict = await checkSvg(readFileSync(`tests/fixtures/svg/hostile/${name}`))
			expect(verdict.ok, name).toBe(false)
		}
	})

	it.each(corpus('clean'))('keeps the drawing of the clean file %s', async (_name, bytes) => {
		const verdict = await checkSvg(bytes)
		expect(verdict.ok).toBe(true)
		if (!verdict.ok) return
		expect(verdict.svg).toMatch(/^<svg[\s>]/)
		expect(verdict.svg).toMatch(/<(rect|path|circle)\b/)
	})

	it('keeps local gradient references and styles that load nothing', async () => {
		const verdict = await checkSvg(readFileSync('tests/fixtures/svg/clean/gradient.svg'))
		expect(verdict.ok && verdict.svg).toContain('url(#g)')
		const logo = await checkSvg(readFileSync('tests/fixtures/svg/clean/logo-with-prolog.svg'))
		expect(logo.ok && logo.svg).toContain('fill:blue')
	})

	it('refuses text that is not an SVG document or not UTF-8', async () => {
		expect((await checkSvg(Buffer.from('<html><body>hi</body></html>'))).ok).toBe(false)
		expect((await checkSvg(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0xfe, 0x3e]))).ok).toBe(false)
	})
})
