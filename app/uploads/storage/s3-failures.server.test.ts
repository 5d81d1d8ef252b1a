import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { type Server, createServer, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectErrorLog } from '../../../tests/setup/fail-on-error-log'
import { IMAGES } from '../../../tests/helpers/images'
import { PROVIDERS, type TestDatabase } from '../../../tests/helpers/databases'
import { openUploadStore } from '../../../tests/helpers/upload-store'
import { failingOnPut, filesUnder, uploadState } from '../../../tests/helpers/upload-storage'
import type { AdminViewer } from '../../data/viewer'
import { uploadsRepository } from '../uploads.server'
import { s3Storage } from './s3.server'

/**
 * The S3 backend when the bucket fails in the middle of a request: the local stand-in
 * (tests/helpers/s3-stand-in.cjs, s3rver in its own process) stopped for good, or a proxy
 * in front of it that answers 5xx or never answers [R34].
 */
const BUCKET = 'store-uploads'
const OBJECT_SUFFIX = '._S3rver_object'

type StandIn = { port: number; dir: string; process: ChildProcess; stop(): Promise<void> }

async function startStandIn(): Promise<StandIn> {
	const dir = mkdtempSync(join(tmpdir(), 'store-s3-failures-'))
	const child = spawn(process.execPath, ['tests/helpers/s3-stand-in.cjs', dir, BUCKET], { stdio: ['ignore', 'pipe', 'inherit'] })
	const port = await new Promise<number>((resolve, reject) => {
		child.once('exit', (code) => reject(new Error(`the S3 stand-in exited (${code})`)))
		child.stdout?.on('data', (chunk: Buffer) => {
			const match = /port=(\d+)/.exec(chunk.toString())
			if (match) resolve(Number(match[1]))
		})
	})
	return {
		port,
		dir,
		process: child,
		async stop() {
			if (child.exitCode === null && child.signalCode === null) {
				const exited = new Promise((resolve) => child.once('exit', resolve))
				child.kill('SIGKILL')
				await exited
			}
		},
	}
}

/** The keys of the objects the stand-in holds (s3rver keeps each as `<key>._S3rver_object`). */
function objectsIn(standIn: StandIn) {
	return filesUnder(join(standIn.dir, BUCKET))
		.filter((path) => path.endsWith(OBJECT_SUFFIX))
		.map((path) => path.slice(0, -OBJECT_SUFFIX.length))
}

/** A proxy to the stand-in whose PUTs, from the `n`th object on, get `misbehave` instead. */
async function proxyFailingPuts(target: number, n: number, misbehave: 'answer 503' | 'never answer') {
	const keys: string[] = []
	const server: Server = createServer((incoming, outgoing) => {
		if (incoming.method === 'PUT') {
			if (!keys.includes(incoming.url ?? '')) keys.push(incoming.url ?? '')
			if (keys.indexOf(incoming.url ?? '') + 1 >= n) {
				incoming.resume()
				if (misbehave === 'answer 503') {
					outgoing.writeHead(503, { 'Content-Type': 'application/xml' })
					outgoing.end('<?xml version="1.0"?><Error><Code>ServiceUnavailable</Code><Message>Down</Message></Error>')
				}
				return
			}
		}
		const forwarded = httpRequest({ host: '127.0.0.1', port: target, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
			outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
			answer.pipe(outgoing)
		})
		incoming.pipe(forwarded)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return {
		port: (server.address() as { port: number }).port,
		close: () => {
			server.closeAllConnections()
			return new Promise((resolve) => server.close(resolve))
		},
	}
}

const storageAt = (port: number) =>
	s3Storage({
		bucket: BUCKET,
		endpoint: `http://127.0.0.1:${port}`,
		region: 'us-east-1',
		accessKeyId: 'S3RVER',
		secretAccessKey: 'S3RVER',
		forcePathStyle: true,
		// Short, so the never-answering bucket fails the test run quickly: three tries of 300 ms.
		timeouts: { connectMs: 300, requestMs: 300 },
	})

describe.each(PROVIDERS)('an S3 bucket failing mid-request, %s', (provider) => {
	let t: TestDatabase
	let admin: AdminViewer
	const cleanups: Array<() => Promise<unknown>> = []

	beforeAll(async () => {
		;({ t, admin } = await openUploadStore(provider, 'upload-s3'))
	})
	afterEach(async () => {
		for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
	})
	afterAll(() => t.db.$disconnect())

	async function standIn() {
		const started = await startStandIn()
		cleanups.push(async () => {
			await started.stop()
			rmSync(started.dir, { recursive: true, force: true })
		})
		return started
	}

	it('answers 503 when the stand-in stops before the second file; no row points at a missing object [R34]', async () => {
		expectErrorLog(/could not remove/)
		const bucket = await standIn()
		const storage = failingOnPut(storageAt(bucket.port), 2, () => bucket.stop())
		const before = await uploadState(t.db, admin.storeId)
		const error = await uploadsRepository(t.db, admin, storage)
			.storeAll([IMAGES.png, IMAGES.gif, IMAGES.jpg])
			.catch((caught: unknown) => caught)
		expect(error).toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE', headers: { 'Retry-After': expect.any(String) } })

		const after = await uploadState(t.db, admin.storeId)
		expect([after.rows, after.created]).toEqual([before.rows, before.created])
		// The bucket is gone, so the first object stays; the store says which one.
		const [entry] = after.failed.slice(before.failed.length)
		expect(entry?.code).toBe('STORAGE_UNAVAILABLE')
		expect(objectsIn(bucket)).toHaveLength(1)
		expect(entry?.leftBehind).toContain(objectsIn(bucket)[0])
	})

	it('answers 503 to a bucket that fails the second file with 5xx, and removes the first object [R34]', async () => {
		const bucket = await standIn()
		const proxy = await proxyFailingPuts(bucket.port, 2, 'answer 503')
		cleanups.push(proxy.close)
		const before = await uploadState(t.db, admin.storeId)
		await expect(uploadsRepository(t.db, admin, storageAt(proxy.port)).storeAll([IMAGES.png, IMAGES.gif])).rejects.toMatchObject({
			status: 503,
			code: 'STORAGE_UNAVAILABLE',
		})
		expect(objectsIn(bucket)).toEqual([])
		const after = await uploadState(t.db, admin.storeId)
		expect(after.rows).toBe(before.rows)
		expect(after.failed.slice(before.failed.length)).toEqual([{ code: 'STORAGE_UNAVAILABLE', files: 2, leftBehind: [] }])
	})

	it('answers 503 to a bucket that never answers the second file, instead of hanging [R34]', async () => {
		const bucket = await standIn()
		const proxy = await proxyFailingPuts(bucket.port, 2, 'never answer')
		cleanups.push(proxy.close)
		const before = await uploadState(t.db, admin.storeId)
		await expect(uploadsRepository(t.db, admin, storageAt(proxy.port)).storeAll([IMAGES.png, IMAGES.gif])).rejects.toMatchObject({ status: 503 })
		expect(objectsIn(bucket)).toEqual([])
		expect((await uploadState(t.db, admin.storeId)).rows).toBe(before.rows)
	})
})
