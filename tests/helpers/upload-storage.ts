/**
 * Helpers for upload failure tests: a storage that fails on its Nth write, what a folder
 * holds, and what an upload request left in the database.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import type { Db } from '../../app/data/db.server'
import type { ObjectStorage } from '../../app/uploads/storage/storage'

/** A node:fs-style error, as the kernel reports it through libuv. */
export function systemError(code: string) {
	return Object.assign(new Error(`${code}: simulated failure, write`), { code, syscall: 'write' })
}

/**
 * `inner`, except that the `n`th put (1-based) and every later one run `fail` instead of
 * writing: either throwing, or changing the world (stopping a server) before writing.
 */
export function failingOnPut(inner: ObjectStorage, n: number, fail: (key: string) => Promise<void> | void): ObjectStorage {
	let puts = 0
	return {
		...inner,
		async put(key, body, contentType) {
			puts += 1
			if (puts >= n) await fail(key)
			await inner.put(key, body, contentType)
		},
	}
}

/** Every file under `dir` (not folders), as paths relative to it. */
export function filesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(dir, join(entry.parentPath, entry.name)))
		.sort()
}

/** The rows and audit entries of this Store, to compare before and after a request. */
export async function uploadState(db: Db, storeId: string) {
	const [rows, created, failed] = await Promise.all([
		db.uploadedObject.count({ where: { storeId } }),
		db.auditEntry.count({ where: { storeId, action: 'upload.create' } }),
		db.auditEntry.findMany({ where: { storeId, action: 'upload.failed' }, select: { detail: true }, orderBy: { createdAt: 'asc' } }),
	])
	return { rows, created, failed: failed.map((entry) => JSON.parse(entry.detail ?? '{}') as { code: string; files: number; leftBehind: string[] }) }
}

/**
 * A tmpfs of `size` mounted on a fresh folder: a real filesystem that really fills up and
 * really turns read-only (root ignores file modes, not a read-only mount). Needs the
 * CAP_SYS_ADMIN that root has on this project's machines; it throws, not skips, without it.
 * `unmount()` unmounts that path and removes the folder.
 */
export function mountTmpfs(size: string) {
	const dir = mkdtempSync(join(tmpdir(), 'store-tmpfs-'))
	mountCommand(['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir])
	let mounted = true
	return {
		dir,
		readOnly: () => mountCommand(['-o', 'remount,ro', dir]),
		readWrite: () => mountCommand(['-o', 'remount,rw', dir]),
		/** Writes a file that leaves about `freeBytes` of the filesystem free. */
		fillLeaving(freeBytes: number) {
			const { bavail, bsize } = statfsSync(dir)
			const fill = bavail * bsize - freeBytes
			if (fill > 0) writeFileSync(join(dir, 'filler.bin'), Buffer.alloc(fill))
		},
		freeBytes: () => {
			const { bavail, bsize } = statfsSync(dir)
			return bavail * bsize
		},
		unmount() {
			if (mounted) mountCommand([dir], 'umount')
			mounted = false
			rmSync(dir, { recursive: true, force: true })
		},
	}
}

function mountCommand(args: string[], command = 'mount') {
	const result = spawnSync(command, args, { encoding: 'utf8' })
	if (result.status !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed (${result.status ?? result.error?.message}): ${result.stderr.trim()}. These tests need root with CAP_SYS_ADMIN to mount a tmpfs.`,
		)
	}
}
