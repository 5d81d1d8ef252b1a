/**
 * Upload rows of `npm run bench`: a 2 MB PNG uploaded by an admin (requests/s,
 * latency, peak RSS) on the server's storage backend, and the peak RSS while a non-admin
 * sends a 200 MB body (it must be refused before it is read: memory stays flat).
 */
import { request as httpRequest } from 'node:http'
import autocannon from 'autocannon'
import { multipart, pngOfSize } from '../../tests/helpers/images'

export type UploadBenchTarget = {
	label: string
	base: string
	adminCookie: string
	customerCookie: string
	rssMb: () => number
}

/** Samples the server's RSS every 20 ms while `work` runs; returns the peak. */
async function peakRss<T>(rssMb: () => number, work: () => Promise<T>) {
	let peak = rssMb()
	const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 20)
	try {
		const result = await work()
		return { result, peak: Math.max(peak, rssMb()) }
	} finally {
		clearInterval(timer)
	}
}

export async function benchUploads(target: UploadBenchTarget, { seconds, connections }: { seconds: number; connections: number }) {
	const { body, contentType } = multipart([{ name: 'file', filename: 'photo.png', type: 'image/png', body: pngOfSize(2 * 1024 * 1024) }])
	const idle = target.rssMb()
	const { result, peak } = await peakRss(target.rssMb, () =>
		autocannon({
			url: `${target.base}/api/upload`,
			method: 'POST',
			connections: Math.min(connections, 4),
			duration: seconds,
			headers: { cookie: target.adminCookie, origin: target.base, 'content-type': contentType },
			body,
		}),
	)
	const ok = result['2xx']
	const rows = [
		{
			route: `POST /api/upload 2 MB PNG (${target.label})`,
			'req/s': Math.round(result.requests.average * 10) / 10,
			'p50 ms': result.latency.p50,
			'p99 ms': result.latency.p99,
			'ok %': Math.round((ok / Math.max(1, result.requests.total)) * 1000) / 10,
			'idle MiB': idle,
			'peak MiB': peak,
		},
	]
	if (target.label !== 'disk') return rows

	const before = target.rssMb()
	const refused = await peakRss(target.rssMb, () => sendBody(target.base, target.customerCookie, 200 * 1024 * 1024))
	rows.push({
		route: `POST /api/upload 200 MB body as a customer → ${refused.result.status || 'refused, connection closed'}`,
		'req/s': 0,
		'p50 ms': refused.result.elapsedMs,
		'p99 ms': refused.result.elapsedMs,
		'ok %': refused.result.status === 403 || refused.result.status === 0 ? 100 : 0,
		'idle MiB': before,
		'peak MiB': refused.peak,
	})
	return rows
}

/** Streams `bytes` of body and reports the status and how long the answer took. */
function sendBody(base: string, cookie: string, bytes: number) {
	return new Promise<{ status: number; elapsedMs: number }>((resolve, reject) => {
		const url = new URL('/api/upload', base)
		const started = Date.now()
		let sent = 0
		const req = httpRequest(
			{
				host: url.hostname,
				port: url.port,
				path: url.pathname,
				method: 'POST',
				headers: { cookie, origin: base, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(bytes) },
			},
			(res) => {
				res.resume()
				resolve({ status: res.statusCode ?? 0, elapsedMs: Date.now() - started })
				req.destroy()
			},
		)
		// The server answers and closes at once; a client still writing may see the close first.
		req.on('error', (error) => {
			if (req.destroyed) return
			const code = (error as NodeJS.ErrnoException).code
			if (code === 'EPIPE' || code === 'ECONNRESET') resolve({ status: 0, elapsedMs: Date.now() - started })
			else reject(error)
		})
		const chunk = Buffer.alloc(256 * 1024, 1)
		const write = () => {
			while (sent < bytes) {
				sent += chunk.length
				if (!req.write(chunk)) return void req.once('drain', write)
			}
			req.end()
		}
		write()
	})
}
