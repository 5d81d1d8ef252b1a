import type { Config } from '../config/env.server'
import type { Transport } from './worker.server'

/**
 * nodemailer's SMTP transport for the configured server (loaded only when sending is set up).
 * STARTTLS is required on a plain smtp:// URL unless the host is this machine, so the key
 * and the mail never cross a network in clear.
 */
export async function smtpTransport(email: NonNullable<Config['email']>): Promise<Transport> {
	const { default: nodemailer } = await import('nodemailer')
	const local = email.host === 'localhost' || email.host === '127.0.0.1' || email.host === '::1'
	return nodemailer.createTransport({
		host: email.host,
		port: email.port,
		secure: email.secure,
		requireTLS: !email.secure && !local,
		...(email.password ? { auth: { user: email.user ?? 'apikey', pass: email.password } } : {}),
		connectionTimeout: 10_000,
		greetingTimeout: 10_000,
		socketTimeout: 20_000,
	})
}
