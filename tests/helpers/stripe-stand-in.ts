/**
 * The Stripe stand-in (tests/e2e/support/stripe-stand-in.mjs) for a vitest file: started on a
 * free port, stopped by `stop()`. `requests()` lists what the store sent it.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export type StandInRequest = { method: string; path: string; form: Record<string, string>; idempotencyKey: string | null; authorized: boolean }

export async function startStripeStandIn() {
	const script = fileURLToPath(new URL('../e2e/support/stripe-stand-in.mjs', import.meta.url))
	const child = spawn(process.execPath, [script], { env: { ...process.env, STAND_IN_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] })
	const port = await new Promise<number>((resolve, reject) => {
		let out = ''
		child.stdout.setEncoding('utf8')
		child.stdout.on('data', (chunk: string) => {
			out += chunk
			const found = /port=(\d+)/.exec(out)
			if (found) resolve(Number(found[1]))
		})
		child.once('exit', (code) => reject(new Error(`the Stripe stand-in exited (${code}) before listening`)))
	})
	const url = `http://127.0.0.1:${port}`
	return {
		url,
		async requests(): Promise<StandInRequest[]> {
			return (await fetch(`${url}/__requests`)).json() as Promise<StandInRequest[]>
		},
		stop: () =>
			new Promise<void>((resolve) => {
				child.once('exit', () => resolve())
				child.kill('SIGTERM')
			}),
	}
}
