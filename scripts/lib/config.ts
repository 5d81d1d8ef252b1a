import { existsSync } from 'node:fs'
import { type Config, ConfigError, getConfig } from '../../app/config/env.server'
import { getDb } from '../../app/data/db.server'
import { checkStoredSecrets, unreadableSecretsMessage } from '../../app/security/stored-secrets.server'

/**
 * Reads .env (real environment variables win), parses the configuration once,
 * and exits non-zero with the refusal (never a secret's value) when it is bad.
 */
export function loadConfigOrExit(tag: string) {
	if (existsSync('.env')) process.loadEnvFile('.env')
	try {
		return getConfig()
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error
		console.error(`[${tag}] ${error.message}`)
		process.exit(1)
	}
}

/**
 * R14: every stored secret opens with AUTH_SECRET or AUTH_SECRET_PREVIOUS (those only the
 * latter opens are sealed anew), or the process exits non-zero naming the fix
 * (app/security/stored-secrets.server.ts).
 */
export async function storedSecretsReadableOrExit(tag: string, config: Config) {
	const report = await checkStoredSecrets({ db: getDb(), config })
	if (report.unreadable.length > 0) {
		console.error(`[${tag}] ${unreadableSecretsMessage(report.unreadable)}`)
		process.exit(1)
	}
	if (report.resealed > 0) {
		console.log(
			`[${tag}] ${report.resealed} stored secret(s) sealed anew with AUTH_SECRET; AUTH_SECRET_PREVIOUS can go once no instance runs with the old secret.`,
		)
	}
}
