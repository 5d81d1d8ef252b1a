import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemaPath } from '../config/database-url'

/** Everything after the datasource block: the models, which must not differ. */
function models(provider: 'sqlite' | 'postgresql') {
	const text = readFileSync(schemaPath(provider), 'utf8')
	const datasource = text.indexOf('datasource db')
	return text.slice(text.indexOf('}', datasource) + 1).trim()
}

describe('SQLite and PostgreSQL stay in step (both first-class)', () => {
	it('declares the same models in both schema files', () => {
		expect(models('sqlite')).toBe(models('postgresql'))
		expect(models('sqlite')).toMatch(/model Store \{/)
	})

	it('has one migrations folder per provider, with the same migrations in each', () => {
		const migrations = (provider: string) =>
			readdirSync(`prisma/${provider}/migrations`)
				.filter((name) => /^\d{14}_/.test(name))
				.sort()
		expect(migrations('sqlite').length).toBeGreaterThan(0)
		expect(migrations('sqlite')).toEqual(migrations('postgresql'))
		for (const provider of ['sqlite', 'postgresql']) {
			expect(readFileSync(`prisma/${provider}/migrations/migration_lock.toml`, 'utf8')).toContain(`provider = "${provider}"`)
		}
	})

	it('gives Store-owned rows a storeId', () => {
		for (const model of ['User', 'Session', 'UploadedObject', 'AuditEntry']) {
			const block = models('sqlite').match(new RegExp(`model ${model} \\{[^}]*\\}`))?.[0] ?? ''
			expect(block, model).toMatch(/storeId\s+String/)
		}
	})
})
