import { describe, expect, it } from 'vitest'
import { totpQrDataUrl } from './totp-qr.server'

describe('the enrolment QR code', () => {
	it('is an SVG data: URL that differs with the secret, so each enrolment shows its own', async () => {
		const uri = (secret: string) => `otpauth://totp/Store:admin%40example.com?secret=${secret}&issuer=Store&algorithm=SHA1&digits=6&period=30`
		const [one, two] = [await totpQrDataUrl(uri('JBSWY3DPEHPK3PXP')), await totpQrDataUrl(uri('KRSXG5CTMVRXEZLU'))]
		expect(one).toMatch(/^data:image\/svg\+xml;base64,/)
		const svg = Buffer.from(one.split(',')[1]!, 'base64').toString('utf8')
		expect(svg).toMatch(/^<svg[\s\S]*<path[\s\S]*<\/svg>\s*$/)
		expect(svg).not.toMatch(/<script|on\w+=|href=/i)
		expect(one).not.toBe(two)
	})
})
