/**
 * A local stand-in for the part of Stripe's API the store calls (there is no network here):
 * `POST /v1/checkout/sessions` answers a Checkout Session whose `url` is a page on this
 * stand-in showing the amount; `POST /v1/refunds` answers a Refund, the same one for the same
 * Idempotency-Key (and Stripe's idempotency error when that key comes with other parameters),
 * and refuses a PaymentIntent whose id contains `refuse` as Stripe refuses one already refunded.
 * Every request is recorded; `GET /__requests` lists them (method, path, form body,
 * Idempotency-Key, Authorization present). Prints `port=<n>`.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'

const requests = []
const sessions = new Map()
/** Refunds by Idempotency-Key, with the form they were made from. */
const refunds = new Map()

const server = createServer((req, res) => {
	let body = ''
	req.setEncoding('utf8')
	req.on('data', (chunk) => (body += chunk))
	req.on('end', () => {
		const url = new URL(req.url ?? '/', 'http://stand-in')
		if (req.method === 'GET' && url.pathname === '/__requests') {
			res.writeHead(200, { 'content-type': 'application/json' })
			res.end(JSON.stringify(requests))
			return
		}
		if (req.method === 'GET' && url.pathname.startsWith('/pay/')) {
			const session = sessions.get(url.pathname.slice('/pay/'.length))
			res.writeHead(session ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
			res.end(
				session
					? `<!doctype html><title>Stand-in checkout</title><h1>Pay ${session.amount_total} ${session.currency}</h1><p data-order="${session.client_reference_id}">Stripe stand-in</p>`
					: 'no such session',
			)
			return
		}
		const form = Object.fromEntries(new URLSearchParams(body))
		requests.push({
			method: req.method,
			path: url.pathname,
			form,
			idempotencyKey: req.headers['idempotency-key'] ?? null,
			authorized: /^Bearer sk_/.test(req.headers.authorization ?? ''),
		})
		if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
			const key = req.headers['idempotency-key']
			const existing = [...sessions.values()].find((s) => s.idempotency_key === key)
			const session = existing ?? createSession(form, key)
			res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` })
			res.end(JSON.stringify(session))
			return
		}
		if (req.method === 'POST' && url.pathname === '/v1/refunds') {
			const [status, answer] = refund(form, req.headers['idempotency-key'])
			res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` })
			res.end(JSON.stringify(answer))
			return
		}
		res.writeHead(404, { 'content-type': 'application/json' })
		res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `No stand-in for ${req.method} ${url.pathname}` } }))
	})
})

function refund(form, key) {
	const sameForm = (a, b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort())
	const earlier = key ? refunds.get(key) : undefined
	if (earlier && !sameForm(earlier.form, form)) {
		return [
			400,
			{ error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with.` } },
		]
	}
	if (earlier) return [200, earlier.refund]
	if (String(form.payment_intent ?? '').includes('refuse')) {
		return [
			400,
			{ error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge for ${form.payment_intent} has already been refunded.` } },
		]
	}
	const made = {
		id: `re_${randomBytes(12).toString('hex')}`,
		object: 'refund',
		amount: Number(form.amount),
		currency: 'usd',
		payment_intent: form.payment_intent,
		metadata: Object.fromEntries(
			Object.entries(form)
				.filter(([name]) => name.startsWith('metadata['))
				.map(([name, value]) => [name.slice(9, -1), value]),
		),
		status: 'succeeded',
	}
	if (key) refunds.set(key, { form, refund: made })
	return [200, made]
}

function createSession(form, key) {
	let amount = 0
	for (let i = 0; form[`line_items[${i}][quantity]`]; i++) {
		amount += Number(form[`line_items[${i}][quantity]`]) * Number(form[`line_items[${i}][price_data][unit_amount]`])
	}
	const id = `cs_test_${randomBytes(12).toString('hex')}`
	const session = {
		id,
		object: 'checkout.session',
		amount_total: amount,
		currency: form['line_items[0][price_data][currency]'],
		client_reference_id: form.client_reference_id,
		payment_status: 'unpaid',
		status: 'open',
		url: `http://127.0.0.1:${server.address().port}/pay/${id}`,
		idempotency_key: key,
	}
	sessions.set(id, session)
	return session
}

server.listen(Number(process.env.STAND_IN_PORT ?? 0), '127.0.0.1', () => console.log(`port=${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
