import { createServer } from 'node:net'

/** A port nobody listens on right now (asked of the OS, not guessed). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer()
		server.unref()
		server.on('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const address = server.address()
			const port = typeof address === 'object' && address ? address.port : 0
			server.close(() => resolve(port))
		})
	})
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a request Cookie header. */
export function cookieHeader(headers: Headers) {
	return headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0])
		.join('; ')
}
