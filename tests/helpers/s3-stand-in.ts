import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The S3 stand-in (s3-stand-in.cjs, s3rver in a Node process of its own) with one bucket in a
 * temporary folder: `env` is what a store needs to keep its uploads there (UPLOAD_STORAGE=s3),
 * so several store processes can share it as they would share a real bucket.
 */
export async function startS3StandIn(bucket: string) {
	const dir = mkdtempSync(join(tmpdir(), 'store-s3-'))
	const child: ChildProcess = spawn(process.execPath, ['tests/helpers/s3-stand-in.cjs', dir, bucket], { stdio: ['ignore', 'pipe', 'inherit'] })
	const port = await new Promise<number>((resolve, reject) => {
		child.stdout?.setEncoding('utf8').on('data', (line: string) => {
			const match = /port=(\d+)/.exec(line)
			if (match) resolve(Number(match[1]))
		})
		child.once('exit', () => reject(new Error('the S3 stand-in stopped before it listened')))
	})
	return {
		env: {
			UPLOAD_STORAGE: 's3',
			S3_BUCKET: bucket,
			S3_ENDPOINT: `http://127.0.0.1:${port}`,
			S3_ACCESS_KEY_ID: 'S3RVER',
			S3_SECRET_ACCESS_KEY: 'S3RVER',
		},
		async stop() {
			if (child.exitCode === null && child.signalCode === null) {
				const exited = new Promise((resolve) => child.once('exit', resolve))
				child.kill('SIGTERM')
				await exited
			}
			rmSync(dir, { recursive: true, force: true })
		},
	}
}
