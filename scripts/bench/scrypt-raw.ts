/**
 * Raw scrypt verifies/s with better-auth's parameters (N=16384, r=16, p=1, 64 bytes),
 * through node:crypto's async scrypt as better-auth calls it, `concurrency` in flight.
 * Usage: node --import tsx scripts/bench/scrypt-raw.ts <seconds> <concurrency> → prints the rate.
 */
import { scrypt } from 'node:crypto'
import { closedLoop } from './closed-loop'

const seconds = Number(process.argv[2] ?? 5)
const concurrency = Number(process.argv[3] ?? 8)
const options = { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 }
const derive = () =>
	new Promise<Buffer>((resolve, reject) =>
		scrypt('bench password'.normalize('NFKC'), '0123456789abcdef0123456789abcdef', 64, options, (error, key) => (error ? reject(error) : resolve(key))),
	)

console.log((await closedLoop(seconds, concurrency, derive)).toFixed(2))
