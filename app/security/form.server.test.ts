import { describe, expect, it } from 'vitest'
import { cursorParam, fields, formSchema, MAX_FORM_BYTES, pageParam, parseForm } from './form.server'

function post(body: string | URLSearchParams, type = 'application/x-www-form-urlencoded') {
	return new Request('http://store.test/form', {
		method: 'POST',
		headers: { 'content-type': type },
		body,
	})
}

async function status(promise: Promise<unknown>) {
	try {
		await promise
	} catch (thrown) {
		return (thrown as { init?: { status?: number } }).init?.status
	}
	return 'not thrown'
}

const shape = formSchema({ name: fields.name })

describe('parseForm (bad input gets a clear 4xx and changes nothing)', () => {
	it('returns typed, trimmed data for a valid form', async () => {
		expect(await parseForm(post('name=+Corner+Shop+'), shape)).toEqual({
			ok: true,
			data: { name: 'Corner Shop' },
		})
	})

	it('refuses a caller-supplied storeId or userId instead of ignoring it [R4]', async () => {
		for (const extra of ['storeId=s2', 'userId=u2', 'role=admin']) {
			const result = await parseForm(post(`name=Shop&${extra}`), shape)
			expect(result.ok).toBe(false)
			expect(!result.ok && result.formError).toMatch(/^Unexpected field: (storeId|userId|role)$/)
		}
	})

	it('reports missing and oversize fields per field', async () => {
		const missing = await parseForm(post(''), shape)
		expect(!missing.ok && missing.fieldErrors.name).toBeTruthy()
		const long = await parseForm(post(`name=${'x'.repeat(81)}`), shape)
		expect(!long.ok && long.fieldErrors.name).toMatch(/at most 80/)
	})

	it('treats prototype names as unknown fields, not as Object internals', async () => {
		for (const key of ['constructor', '__proto__', 'toString']) {
			const result = await parseForm(post(`name=Shop&${key}=x`), shape)
			expect(!result.ok && result.formError, key).toBe(`Unexpected field: ${key}`)
		}
	})

	it('refuses a field sent twice', async () => {
		const result = await parseForm(post('name=a&name=b'), shape)
		expect(!result.ok && result.fieldErrors.name).toMatch(/more than once/)
	})

	it('refuses a filled honeypot', async () => {
		const result = await parseForm(post('name=Shop&website=http://spam.example'), shape)
		expect(result.ok).toBe(false)
	})

	it('answers 415 for JSON and multipart bodies', async () => {
		expect(await status(parseForm(post('{"name":"x"}', 'application/json'), shape))).toBe(415)
		expect(await status(parseForm(post('x', 'multipart/form-data; boundary=x'), shape))).toBe(415)
	})

	it('answers 413 for a body over the limit, with or without Content-Length', async () => {
		const big = `name=${'x'.repeat(MAX_FORM_BYTES)}`
		expect(await status(parseForm(post(big), shape))).toBe(413)
		const lying = new Request('http://store.test/form', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '10' },
			body: big,
		})
		expect(await status(parseForm(lying, shape))).toBe(413)
	})

	it('normalises email addresses and rejects malformed ones', async () => {
		const ok = await parseForm(post('email=+Cat%40Example.COM'), formSchema({ email: fields.email }))
		expect(ok).toEqual({ ok: true, data: { email: 'cat@example.com' } })
		const bad = await parseForm(post('email=not-an-email'), formSchema({ email: fields.email }))
		expect(!bad.ok && bad.fieldErrors.email).toBeTruthy()
	})
})

describe('pageParam (a list page in the address)', () => {
	const pageOf = (query: string) => pageParam(new Request(`http://store.test/${query}`))
	it('reads a page from 1 to 100,000 and answers page 1 for anything else, never an error', () => {
		expect(pageOf('?page=7')).toBe(7)
		expect(pageOf('?page=100000')).toBe(100_000)
		for (const forged of ['', '?page=', '?page=0', '?page=-3', '?page=abc', '?page=1e3', '?page=2.5', '?page=100001', '?page=99999999999', '?page=%00'])
			expect(pageOf(forged), forged).toBe(1)
	})
})

describe('cursorParam (where a keyset list starts) [R142]', () => {
	const cursorOf = (query: string) => cursorParam(new Request(`http://store.test/${query}`), /^\d{1,9}$/)
	it('reads one key of the list’s shape, before or after', () => {
		expect(cursorOf('?before=1042')).toEqual({ before: '1042' })
		expect(cursorOf('?after=7&status=paid')).toEqual({ after: '7' })
	})
	it('opens the newest page for no key, both keys, or a key of another shape, never an error', () => {
		for (const forged of ['', '?before=', '?before=abc', '?after=-3', '?before=1e3', '?before=1234567890', '?before=1&after=2', '?after=%00', '?before=1%0A'])
			expect(cursorOf(forged), forged).toBeNull()
	})
})
