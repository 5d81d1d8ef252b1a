/**
 * What `npm run setup` writes into .env besides the secret: the PORT it was run with, so the
 * `npm start` that follows (which reads .env) serves where setup said it would.
 */

/** A PORT as the server accepts it (1 to 65535, digits only), or null. */
export function portFrom(value: string | undefined): number | null {
	if (value === undefined || !/^\d{1,5}$/.test(value.trim())) return null
	const port = Number(value.trim())
	return port >= 1 && port <= 65535 ? port : null
}

/** `envText` with its PORT line set to `port` (the first one replaced, or one appended). */
export function withPort(envText: string, port: number) {
	const line = `PORT=${port}`
	if (/^PORT=.*$/m.test(envText)) return envText.replace(/^PORT=.*$/m, line)
	return `${envText}${envText === '' || envText.endsWith('\n') ? '' : '\n'}${line}\n`
}
