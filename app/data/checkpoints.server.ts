import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { Db } from './db.server'

/**
 * Pages the write-ahead log may hold before the serving connection copies it back itself. The
 * thread below keeps it far shorter; this bound only holds if the thread stops keeping up.
 */
export const SERVING_AUTOCHECKPOINT_PAGES = 10_000

/**
 * The checkpointing thread: its own connection to the file copies the write-ahead log back
 * into the database every `everyMs`. PASSIVE never waits for a lock and never blocks a reader
 * or the writer; what it cannot copy yet it copies next time. It answers `stop` with a last
 * checkpoint, closes its connection and ends; one that cannot open the file says so and ends.
 * Plain CommonJS: it runs from this string in the built server as in the tests.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
// better-sqlite3's SqliteError reaches the server as a bare object: say what it was here.
const describe = (error) => (error && (error.code ? error.code + ': ' + error.message : error.message)) || String(error)
function open() {
	try {
		const db = new Database(workerData.file, { fileMustExist: true })
		db.pragma('busy_timeout = 5000')
		return db
	} catch (error) {
		parentPort.postMessage({ kind: 'ended', message: describe(error) })
		parentPort.close()
		return null
	}
}
const db = open()
if (db) {
	const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0]
	let failures = 0
	const timer = setInterval(() => {
		try {
			const result = checkpoint()
			failures = 0
			if (workerData.report) parentPort.postMessage({ kind: 'checkpointed', log: result.log, checkpointed: result.checkpointed })
		} catch (error) {
			// One line for a run of failures, not one every interval.
			if (failures++ === 0) parentPort.postMessage({ kind: 'failed', message: describe(error) })
		}
	}, workerData.everyMs)
	parentPort.once('message', () => {
		clearInterval(timer)
		try { checkpoint() } catch {}
		db.close()
		parentPort.close()
	})
}
`

/** SQLite's own bound: the connection that commits copies the log back past it. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000

const servingCheckpointsAt = (db: Db, pages: number) =>
	db.$queryRawUnsafe(`PRAGMA wal_autocheckpoint = ${pages}`).then(
		() => undefined,
		() => undefined,
	)

export type Checkpoints = { stop(): Promise<void> }

/**
 * Moves SQLite's checkpoints off the connection that serves requests. By default the
 * connection that commits copies the write-ahead log back into the database file once it
 * holds 1,000 pages: one commit in sixty or so during checkouts wrote 4 MB and waited for
 * fsync, 10–30 ms during which the event loop answered nothing (docs/decisions/065). Here a
 * thread with a connection of its own does it every `everyMs`, and the serving connection
 * only checkpoints itself past SERVING_AUTOCHECKPOINT_PAGES. Durability is unchanged: a commit
 * is in the log, synced as before; the checkpoint only moves it into the main file.
 * `onCheckpoint` is for tests (each pass's log and checkpointed frame counts).
 */
export async function startCheckpoints(
	db: Db,
	file: string,
	{
		everyMs = 250,
		onFailure,
		onCheckpoint,
	}: { everyMs?: number; onFailure: (message: string) => void; onCheckpoint?: (pass: { log: number; checkpointed: number }) => void },
): Promise<Checkpoints> {
	await servingCheckpointsAt(db, SERVING_AUTOCHECKPOINT_PAGES)
	const worker = new Worker(THREAD, {
		eval: true,
		workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), everyMs, report: onCheckpoint !== undefined },
	})
	// The thread never keeps the process alive: a server is kept alive by its listener.
	worker.unref()
	// A thread that could not start, or died, leaves the log to the serving connection again, at SQLite's own bound.
	const ended = (message: string) => {
		onFailure(message)
		void servingCheckpointsAt(db, DEFAULT_AUTOCHECKPOINT_PAGES)
	}
	worker.on('message', (message: { kind: string; message?: string; log?: number; checkpointed?: number }) => {
		if (message.kind === 'checkpointed') onCheckpoint?.({ log: message.log ?? 0, checkpointed: message.checkpointed ?? 0 })
		else if (message.kind === 'ended') ended(message.message ?? 'unknown error')
		else onFailure(message.message ?? 'unknown error')
	})
	worker.on('error', (error: unknown) => ended(error instanceof Error ? error.message : String(error)))
	const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
	let stopped: Promise<void> | undefined
	return {
		stop() {
			stopped ??= (async () => {
				// Held while it runs its last checkpoint: a draining server whose listener is closed
				// would otherwise end, with exit code 0, before the thread did.
				worker.ref()
				worker.postMessage('stop')
				await exited
				// The serving connection checkpoints itself again, as SQLite does by default.
				await servingCheckpointsAt(db, DEFAULT_AUTOCHECKPOINT_PAGES)
			})()
			return stopped
		},
	}
}
