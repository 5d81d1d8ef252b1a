import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import { Readable } from 'node:stream'
import { assertObjectKey, type ObjectStorage } from './storage'

/** Local disk (the embedded default): files under one root folder, written atomically. */
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
			await mkdir(dirname(path), { recursive: true })
			const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
			await writeFile(temporary, body, { flag: 'wx', mode: 0o640 })
			await rename(temporary, path)
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
