import { existsSync } from 'node:fs'
import { ConfigError, getConfig } from '../../app/config/env.server'

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
