/**
 * A browser without JavaScript, as far as the store can tell: its cookies and same-origin form
 * posts. Used by the tests that drive checkout over HTTP against the production build.
 */
import { expect } from 'vitest'
import { cookieHeader } from './http'

export const ADDRESS = { name: 'Ada Buyer', addressLine1: '1 Market Street', addressLine2: '', city: 'Springfield', postalCode: '12345', country: 'US' }

/** The one-time key the checkout page renders into its form, if it rendered one. */
export const idempotencyKeyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1]

export class Guest {
	readonly jar = new Map<string, string>()
	/** Mutable: the same browser may come back to a store restarted on another port. */
	constructor(public origin: string) {}

	get cookie() {
		return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ')
	}

	/**
	 * `via`: another address serving the same store (one instance behind a balancer, trusting
	 * it as a proxy: TRUST_PROXY=1); the request comes from a page of `origin`, the store's
	 * public address, and names it as a proxy does (X-Forwarded-Host).
	 */
	async send(path: string, form?: Record<string, string>, init: { signal?: AbortSignal; via?: string } = {}) {
		const response = await fetch(`${init.via ?? this.origin}${path}`, {
			method: form ? 'POST' : 'GET',
			redirect: 'manual',
			headers: {
				cookie: this.cookie,
				...(init.via ? { 'x-forwarded-host': new URL(this.origin).host } : {}),
				...(form ? { origin: this.origin, 'content-type': 'application/x-www-form-urlencoded' } : {}),
			},
			body: form ? new URLSearchParams(form).toString() : undefined,
			signal: init.signal,
		})
		for (const pair of cookieHeader(response.headers).split('; ').filter(Boolean)) {
			const at = pair.indexOf('=')
			this.jar.set(pair.slice(0, at), pair.slice(at + 1))
		}
		return response
	}

	async add(productId: string, quantity = 1) {
		const response = await this.send('/cart', { intent: 'add', productId, quantity: String(quantity) })
		expect(response.status, await response.text()).toBe(302)
	}

	/** The checkout form as the page renders it, with its one-time idempotency key. */
	async checkoutForm(email: string, payment = 'offline') {
		const page = await this.send('/checkout')
		const html = await page.text()
		expect(page.status, html.slice(0, 300)).toBe(200)
		const idempotencyKey = idempotencyKeyOf(html)
		expect(idempotencyKey).toBeTruthy()
		return { email, ...ADDRESS, payment, idempotencyKey: idempotencyKey! }
	}

	/** The id inside the signed cookie (base64 of its JSON, a dot, the signature). */
	guestId(): string {
		const signed = decodeURIComponent(this.jar.get('guestId') ?? '')
		return JSON.parse(Buffer.from(signed.split('.')[0] ?? '', 'base64').toString('utf8'))
	}
}
