import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import { assertObjectKey, type ObjectStorage } from './storage'

/**
 * Local disk (the embedded default): files under one root folder, written atomically. A put
 * that fails leaves nothing, not even its temporary file, so a full or read-only disk never
 * collects half-written files [R34].
 */
export function diskStorage(rootDir: string): ObjectStorage {
	const root = resolve(rootDir)
	const pathOf = (key: string) => {
		assertObjectKey(key)
		const path = resolve(root, key)
		if (!path.startsWith(root + sep)) throw new Error('Object key escapes the upload folder')
		return path
	}
	return {
		kind: 'disk',
		async put(key, body) {
			const path = pathOf(key)
			await makeFolder(root, dirname(path))
			const temporary = `${path}.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`
			try {
				const file = await open(temporary, 'wx', 0o640)
				try {
					await file.writeFile(body)
					// A disk that runs out at flush time (quotas, network filesystems) says so here, not later.
					await file.datasync()
				} finally {
					await file.close()
				}
				await rename(temporary, path)
			} catch (error) {
				await rm(temporary, { force: true }).catch(() => undefined)
				throw error
			}
		},
		async get(key) {
			const path = pathOf(key)
			const info = await stat(path).catch(() => null)
			if (!info?.isFile()) return null
			return { body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, size: info.size }
		},
		async delete(key) {
			await rm(pathOf(key), { force: true })
		},
	}
}

const TEMPORARY_SUFFIX = '.tmp'
/** What `put` names a file while it is being written: `<key>.<12 hex>.tmp`. */
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/

/**
 * Removes the temporary files a process killed in the middle of a write left behind (a put
 * that fails removes its own). Only files older than `olderThanMs` are taken, so a write in
 * progress in another process sharing the folder is never cut. Returns how many were removed.
 */
export async function sweepTemporaryFiles(rootDir: string, { olderThanMs = 60 * 60_000, now = Date.now() } = {}) {
	const entries = await readdir(resolve(rootDir), { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
		if (error.code === 'ENOENT') return []
		throw error
	})
	let removed = 0
	for (const entry of entries) {
		if (!entry.isFile() || !TEMPORARY.test(entry.name)) continue
		const path = join(entry.parentPath, entry.name)
		const info = await stat(path).catch(() => null)
		if (!info || now - info.mtimeMs < olderThanMs) continue
		await rm(path, { force: true })
		removed++
	}
	return removed
}

/**
 * `mkdir -p`, except that the real cause comes out: Node's recursive mkdir reports a
 * read-only filesystem (EROFS) as ENOENT, so on ENOENT the folders are made one by one.
 */
async function makeFolder(root: string, folder: string) {
	try {
		await mkdir(folder, { recursive: true })
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
		let current = root
		for (const part of ['', ...relative(root, folder).split(sep)]) {
			current = resolve(current, part)
			await mkdir(current).catch((step: NodeJS.ErrnoException) => {
				if (step.code !== 'EEXIST') throw step
			})
		}
	}
}
