import { existsSync } from 'node:fs'
import { type Config, ConfigError, getConfig } from '../app/config/env.server'
import { getDb } from '../app/data/db.server'
import { unsupportedNode } from '../app/config/node-runtime.server'
import { rememberSecretsFromEnvironment } from '../app/log/logger.server'
import { checkStoredSecrets, unreadableSecretsMessage } from '../app/security/stored-secrets.server'

/** Where the lines below go: the console for a command a person runs (init), the logger for the server. */
export type Report = { info: (line: string) => void; error: (line: string) => void }
const toConsole: Report = { info: (line) => console.log(line), error: (line) => console.error(line) }

/**
 * Refuses a Node older than package.json's engines, reads .env (real environment variables
 * win), parses the configuration once, and exits non-zero with the refusal (never a secret's
 * value) when it is bad.
 */
export function loadConfigOrExit(tag: string, report: Report = toConsole) {
	const tooOld = unsupportedNode()
	if (tooOld) {
		report.error(`[${tag}] ${tooOld}`)
		process.exit(1)
	}
	if (existsSync('.env')) process.loadEnvFile('.env')
	// The secrets .env brought are replaced in every log line from here on [R13].
	rememberSecretsFromEnvironment()
	try {
		return getConfig()
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error
		report.error(`[${tag}] ${error.message}`)
		process.exit(1)
	}
}

/**
 * R14: every stored secret opens with AUTH_SECRET or AUTH_SECRET_PREVIOUS (those only the
 * latter opens are sealed anew), or the process exits non-zero naming the fix
 * (app/security/stored-secrets.server.ts).
 */
export async function storedSecretsReadableOrExit(tag: string, config: Config, report: Report = toConsole) {
	const outcome = await checkStoredSecrets({ db: getDb(), config })
	if (outcome.unreadable.length > 0) {
		report.error(`[${tag}] ${unreadableSecretsMessage(outcome.unreadable)}`)
		process.exit(1)
	}
	if (outcome.resealed > 0) {
		report.info(
			`[${tag}] ${outcome.resealed} stored secret(s) sealed anew with AUTH_SECRET; AUTH_SECRET_PREVIOUS can go once no instance runs with the old secret.`,
		)
	}
}
