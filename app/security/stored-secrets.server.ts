import { type SecretConfig, parseEnvelope, symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto'
import type { Config } from '../config/env.server'
import type { Db } from '../data/db.server'
import { connectionScope, openingSecrets, sealSecret, tryOpenSecret } from './secret-box.server'
import { authSecretVersions } from '../config/secret-policy'

/**
 * The start-up check of stored secrets [R14] (docs/decisions/032-secret-rotation.md), run by
 * the server and by `npm run init` before anything else reads them. Payment Connection secrets
 * and two-factor secrets and backup codes are encrypted with keys derived from AUTH_SECRET, so
 * a new AUTH_SECRET alone would make them unreadable, silently, the first time someone needs
 * them. Here each one is opened:
 * - sealed with AUTH_SECRET: nothing to do (a two-factor value names its secret's version, so
 *   it is not even decrypted);
 * - opened only by a secret AUTH_SECRET replaced (AUTH_SECRET_PREVIOUS), or stored before
 *   values named their version: sealed again with AUTH_SECRET, by a conditional update that
 *   leaves a value changed meanwhile alone;
 * - opened by none: reported, and the caller refuses to start, naming the fix.
 */
export type StoredSecretsReport = { resealed: number; unreadable: string[] }

type Opened = { plain: string; current: boolean }

/** better-auth's key set: every configured version, AUTH_SECRET's current. */
function keySet(config: Config): SecretConfig {
	const versions = authSecretVersions(config)
	return { keys: new Map(versions.map((secret) => [secret.version, secret.value])), currentVersion: versions[0]?.version ?? 0 }
}

/** A two-factor value as better-auth stores it: `$ba$<version>$<hex>`, or bare hex from before versions. */
async function openTwoFactorValue(data: string, key: SecretConfig, secrets: string[]): Promise<Opened | null> {
	const envelope = parseEnvelope(data)
	if (envelope?.version === key.currentVersion) return { plain: '', current: true }
	const attempts = envelope ? [key] : secrets
	for (const attempt of attempts) {
		try {
			return { plain: await symmetricDecrypt({ key: attempt, data }), current: false }
		} catch {
			// Not this secret (or a version none of them has).
		}
	}
	return null
}

/** `readOnly` (the diagnostics): report what cannot be read, seal nothing anew. */
async function checkConnections(db: Db, config: Config, report: StoredSecretsReport, readOnly: boolean) {
	const secrets = openingSecrets(config)
	const rows = await db.connection.findMany({ where: { secretBox: { not: null } }, select: { id: true, storeId: true, handle: true, secretBox: true } })
	for (const row of rows) {
		if (!row.secretBox) continue
		const scope = connectionScope(row.storeId, row.handle)
		const opened = tryOpenSecret<unknown>(row.secretBox, scope, secrets)
		if (!opened) report.unreadable.push(`the payment Connection "${row.handle}"`)
		if (!opened || opened.secretIndex === 0 || readOnly) continue
		const { count } = await db.connection.updateMany({
			where: { id: row.id, secretBox: row.secretBox },
			data: { secretBox: sealSecret(opened.value, scope, config.authSecret) },
		})
		report.resealed += count
	}
}

async function checkTwoFactors(db: Db, config: Config, report: StoredSecretsReport, readOnly: boolean) {
	const key = keySet(config)
	const secrets = openingSecrets(config)
	const rows = await db.twoFactor.findMany({ select: { id: true, secret: true, backupCodes: true } })
	let unreadable = 0
	for (const row of rows) {
		const [secret, backupCodes] = [await openTwoFactorValue(row.secret, key, secrets), await openTwoFactorValue(row.backupCodes, key, secrets)]
		if (!secret || !backupCodes) unreadable += 1
		if (!secret || !backupCodes || (secret.current && backupCodes.current) || readOnly) continue
		const reseal = async (value: Opened, stored: string) => (value.current ? stored : symmetricEncrypt({ key, data: value.plain }))
		const { count } = await db.twoFactor.updateMany({
			where: { id: row.id, secret: row.secret, backupCodes: row.backupCodes },
			data: { secret: await reseal(secret, row.secret), backupCodes: await reseal(backupCodes, row.backupCodes) },
		})
		report.resealed += count
	}
	if (unreadable > 0) report.unreadable.push(`the two-factor sign-in of ${unreadable} account${unreadable === 1 ? '' : 's'}`)
}

export async function checkStoredSecrets({ db, config, readOnly = false }: { db: Db; config: Config; readOnly?: boolean }): Promise<StoredSecretsReport> {
	const report: StoredSecretsReport = { resealed: 0, unreadable: [] }
	try {
		await checkConnections(db, config, report, readOnly)
		await checkTwoFactors(db, config, report, readOnly)
	} catch (error) {
		// A database `npm run init` has not prepared yet stores nothing (P2021: no such table).
		if ((error as { code?: string } | null)?.code !== 'P2021') throw error
	}
	return report
}

/** The refusal: what cannot be read, and the fix. Never a secret's value. */
export function unreadableSecretsMessage(unreadable: string[]) {
	return (
		`Refusing to start: stored secrets cannot be read with AUTH_SECRET or AUTH_SECRET_PREVIOUS (${unreadable.join('; ')}). ` +
		'They were sealed with an earlier AUTH_SECRET: set AUTH_SECRET_PREVIOUS to that secret (comma-separate several) and start again; ' +
		'they are then sealed anew with AUTH_SECRET. If that secret is lost, see README, "Rotating AUTH_SECRET".'
	)
}
