import { randomBytes } from 'node:crypto'
import pg from 'pg'

/**
 * Throwaway PostgreSQL databases for test runs: each run creates its own and drops
 * it afterwards, so two runs never collide. A missing server is an error, never a skip.
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
	try {
		await client.connect()
	} catch (error) {
		throw new Error(
			`PostgreSQL is required by the test suite and is not reachable at ${new URL(POSTGRES_ADMIN_URL).host} ` +
				`(${(error as Error).message}). Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`,
		)
	}
	try {
		return await run(client)
	} finally {
		await client.end()
	}
}

const SAFE_NAME = /^[a-z0-9_]+$/

export function testDatabaseUrl(name: string) {
	return Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${name}` }).href
}

export async function createTestDatabase(prefix: string) {
	const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`
	if (!SAFE_NAME.test(name)) throw new Error(`unsafe database name: ${name}`)
	await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`))
	return { name, url: testDatabaseUrl(name) }
}

/**
 * A new database copied from `template` (CREATE DATABASE … TEMPLATE): the template's schema and
 * rows, without running its migrations again. Nobody may be connected to the template meanwhile;
 * two copies made at the same moment may meet PostgreSQL's "being accessed by other users", so
 * that one answer is tried again.
 */
export async function createTestDatabaseFrom(prefix: string, template: string) {
	if (!SAFE_NAME.test(template)) throw new Error(`unsafe database name: ${template}`)
	const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`
	if (!SAFE_NAME.test(name)) throw new Error(`unsafe database name: ${name}`)
	for (let attempt = 1; ; attempt++) {
		try {
			await withAdmin((client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`))
			return { name, url: testDatabaseUrl(name) }
		} catch (error) {
			if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error
			await new Promise((resolve) => setTimeout(resolve, 100 * attempt))
		}
	}
}

export async function dropTestDatabase(name: string) {
	if (!SAFE_NAME.test(name)) throw new Error(`unsafe database name: ${name}`)
	await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))
}

/**
 * A database for an end-to-end store process: a copy of the run's migrated template when
 * tests/playwright.config.ts made one (E2E_PG_TEMPLATE), so the store's init finds its migrations
 * applied; otherwise an empty one that init migrates.
 */
export function createStoreDatabase(prefix: string) {
	const template = process.env.E2E_PG_TEMPLATE
	return template ? createTestDatabaseFrom(prefix, template) : createTestDatabase(prefix)
}
