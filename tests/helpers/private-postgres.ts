/**
 * A PostgreSQL cluster of a test's own, on a free port in a temp folder, for tests that stop or
 * pause the database. The shared cluster (5432) is never touched: every signal here goes to a
 * process of this cluster, by its PID. (A private Redis: tests/helpers/redis.ts.)
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from './http.ts'

/** Runs a PostgreSQL tool as `postgres` (initdb and pg_ctl refuse to run as root). */
function asPostgres(command: string, args: string[]) {
	const run = spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
	if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}): ${run.stderr || run.stdout}`)
}

/** The postmaster and every backend of the cluster, for SIGSTOP and SIGCONT. */
function clusterPids(dataDir: string) {
	const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
	const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
		.split('\n')
		.map((line) => Number(line.trim()))
		.filter((pid) => pid > 0)
	return [postmaster, ...children]
}

export type PrivatePostgres = {
	/** The superuser's URL of the cluster's `postgres` database (trust auth, loopback only). */
	url: string
	stop(): void
	start(): void
	/** SIGSTOP to the postmaster and its backends: connections are accepted by the kernel and never answered. */
	pause(): void
	resume(): void
	close(): void
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
	const dir = mkdtempSync(path.join(tmpdir(), 'store-pg-'))
	chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })))
	const dataDir = path.join(dir, 'data')
	asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
	const port = await freePort()
	const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
	const cluster: PrivatePostgres = {
		url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
		start: () => asPostgres('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']),
		stop: () => asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
		pause: () => {
			for (const pid of clusterPids(dataDir)) process.kill(pid, 'SIGSTOP')
		},
		resume: () => {
			for (const pid of clusterPids(dataDir)) process.kill(pid, 'SIGCONT')
		},
		close: () => {
			try {
				cluster.resume()
				cluster.stop()
			} catch {
				// Already stopped.
			}
			rmSync(dir, { recursive: true, force: true })
		},
	}
	cluster.start()
	return cluster
}
