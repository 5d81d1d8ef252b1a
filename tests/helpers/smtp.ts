import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { freePort } from './http'

export type Received = ParsedMail & { envelopeTo: string[] }

/**
 * A real SMTP server on a free port (smtp-server), keeping every mail it accepts, parsed by
 * mailparser. `stop()` closes it (the port refuses connections), `start()` opens it again.
 */
export async function smtpServer({ port: given }: { port?: number } = {}) {
	const port = given ?? (await freePort())
	const received: Received[] = []
	const waiting: Array<() => void> = []
	let server: SMTPServer | null = null
	const start = () =>
		new Promise<void>((resolve, reject) => {
			server = new SMTPServer({
				authOptional: true,
				disabledCommands: ['STARTTLS'],
				logger: false,
				onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
				onData(stream, session, callback) {
					simpleParser(stream)
						.then((mail) => {
							received.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }))
							for (const wake of waiting.splice(0)) wake()
							callback()
						})
						.catch(callback)
				},
			})
			server.once('error', reject)
			server.listen(port, '127.0.0.1', () => resolve())
		})
	await start()
	return {
		port,
		url: `smtp://127.0.0.1:${port}`,
		received,
		start,
		stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
		/** Resolves with the first mail to `to` matching `match`, waiting up to `timeoutMs`. */
		async next(to: string, match: (mail: Received) => boolean = () => true, timeoutMs = 15_000): Promise<Received> {
			const deadline = Date.now() + timeoutMs
			for (;;) {
				const found = received.find((mail) => mail.envelopeTo.includes(to) && match(mail))
				if (found) return found
				if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (${received.length} received)`)
				await new Promise<void>((resolve) => {
					waiting.push(resolve)
					setTimeout(resolve, 250)
				})
			}
		},
	}
}
