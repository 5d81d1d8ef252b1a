/**
 * `concurrency` workers run `task` back to back until `seconds` have passed; every task started
 * is awaited and counted, and the rate is completions over the whole elapsed time. Raw scrypt
 * (scrypt-raw.ts) and sign-in (budget.ts) are both counted by this loop, so their ratio compares
 * like with like.
 */
export async function closedLoop(seconds: number, concurrency: number, task: () => Promise<unknown>): Promise<number> {
	let done = 0
	const until = Date.now() + seconds * 1000
	const started = performance.now()
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (Date.now() < until) {
				await task()
				done++
			}
		}),
	)
	return done / ((performance.now() - started) / 1000)
}
