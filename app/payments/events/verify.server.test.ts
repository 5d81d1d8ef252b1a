import { describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import Stripe from 'stripe'
import { genericRequestOfBytes, newWebhookSecret, stripeSignature, stripeSignatureOfBytes } from '../../../tests/helpers/events'
import { verifyGeneric, verifyStripe } from './verify.server'

const secret = newWebhookSecret()
const body = '{"id":"evt_1","type":"payment_intent.succeeded","data":{"object":{"note":"café"}}}'
const raw = Buffer.from(body)

/** Whether the official SDK accepts this delivery (it checks only the past side of the window). */
function sdkAccepts(payload: Uint8Array | string, header: string, now: number) {
	try {
		Stripe.webhooks.constructEvent(typeof payload === 'string' ? payload : Buffer.from(payload), header, secret, 300, undefined, now)
		return true
	} catch {
		return false
	}
}

describe('event verification over the exact bytes', () => {
	it('reads Stripe-Signature as the SDK does, except that it refuses a second t= [R60]', () => {
		const now = Date.now()
		const t = Math.floor(now / 1000)
		const signed = stripeSignature(body, secret, t)
		const v1 = signed.split(',v1=')[1]!
		const other = stripeSignature(body, newWebhookSecret(), t).split(',v1=')[1]!
		const agreed = [
			signed,
			`v1=${v1},t=${t}`,
			`t=${t},v0=${v1},v1=${other},v1=${v1}`,
			`t=${t},v1=${other}`,
			`t=${t},v0=${v1}`,
			`t=${t}abc,v1=${v1}`,
			` t=${t},v1=${v1}`,
			`T=${t},v1=${v1}`,
			`t=${t},v1=${v1.slice(1)}`,
			`t=${t - 3600},v1=${stripeSignature(body, secret, t - 3600).split(',v1=')[1]}`,
		]
		for (const header of agreed) expect(verifyStripe(raw, header, [secret], now).ok, header).toBe(sdkAccepts(raw, header, now))
		// Two t=: the SDK verifies against the last one, so a window checked on another is not the signature's.
		const old = stripeSignature(body, secret, t - 3600)
		expect(sdkAccepts(raw, `${signed},t=${t}`, now)).toBe(true)
		for (const header of [`t=${t},${old}`, `${signed},t=${t}`, `t=${t},t=${t},v1=${v1}`]) {
			expect(verifyStripe(raw, header, [secret], now), header).toEqual({
				ok: false,
				status: 401,
				reason: 'more than one t= in the signature header',
				code: 'VERIFICATION_FAILED',
			})
		}
	})

	it('accepts only bodies whose UTF-8 reading is the bytes themselves, so the libraries verify the bytes signed [R61]', () => {
		const now = Date.now()
		const bytes = Buffer.concat([Buffer.from('{"id":"evt_2","name":"Caf'), Buffer.from([0xe9, 0xff]), Buffer.from('"}')])
		const lossy = bytes.toString('utf8')
		// The SDK hashes the UTF-8 reading: alone, it would accept these bytes under the signature of another text.
		expect(sdkAccepts(bytes, stripeSignature(lossy, secret), now)).toBe(true)
		for (const header of [stripeSignatureOfBytes(bytes, secret), stripeSignature(lossy, secret)]) {
			expect(verifyStripe(bytes, header, [secret], now)).toMatchObject({ ok: false, status: 400, code: 'INVALID_EVENT' })
		}
		const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id":"evt_3"}')])
		expect(verifyStripe(bom, stripeSignature('{"id":"evt_3"}', secret), [secret], now)).toMatchObject({ ok: false, code: 'INVALID_EVENT' })

		const headers = new Headers({
			'webhook-id': 'msg_2',
			'webhook-timestamp': String(Math.floor(now / 1000)),
			'webhook-signature': new Webhook(secret).sign('msg_2', new Date(now), lossy),
		})
		expect(() => new Webhook(secret).verify(bytes, Object.fromEntries(headers))).not.toThrow()
		expect(verifyGeneric(bytes, headers, [secret], now)).toMatchObject({ ok: false, status: 400, code: 'INVALID_EVENT' })
		// For exact text both libraries and the store agree, whatever its characters.
		const text = Buffer.from('{"id":"evt_4","name":"Caf\u00e9 \u{1F600}\u2028"}\r\n')
		expect(verifyStripe(text, stripeSignatureOfBytes(text, secret), [secret], now)).toEqual({ ok: true, eventId: null })
		const exact = genericRequestOfBytes('http://s/e', text, secret, { id: 'msg_1' })
		expect(verifyGeneric(text, exact.headers, [secret], now)).toEqual({ ok: true, eventId: 'msg_1' })
	})
})
