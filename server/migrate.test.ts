import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDb } from '../app/data/db.server'
import { PROVIDERS, type TestDatabase, openTestDatabase } from '../tests/helpers/databases'
import { createTestDatabase, dropTestDatabase } from '../tests/helpers/postgres'
import { type AppliedMigration, everyMigrationFinished, localMigrations, migrateDatabaseUnlessCurrent, migrationsCurrent, prismaCli } from './migrate'

const local = [
	{ name: '20260101000000_init', checksum: 'a'.repeat(64) },
	{ name: '20260102000000_more', checksum: 'b'.repeat(64) },
]
const row = (name: string, checksum: string, over: Partial<AppliedMigration> = {}): AppliedMigration => ({
	migration_name: name,
	checksum,
	finished_at: new Date(),
	rolled_back_at: null,
	...over,
})
const allApplied = () => local.map((m) => row(m.name, m.checksum))

describe('whether init may skip prisma migrate deploy', () => {
	it('skips it only when every migration of the folder is applied, finished, with its checksum', () => {
		expect(migrationsCurrent(local, allApplied())).toBe(true)
	})

	it('runs it for a migration not yet applied, and for a new database', () => {
		expect(migrationsCurrent(local, allApplied().slice(0, 1))).toBe(false)
		expect(migrationsCurrent(local, [])).toBe(false)
	})

	it('runs it for a failed or unfinished migration, so Prisma says what is wrong', () => {
		const [first, second] = allApplied()
		expect(migrationsCurrent(local, [first!, { ...second!, finished_at: null }])).toBe(false)
		// A failed try, then a successful one after `migrate resolve`: the failure is rolled back, the retry finished.
		expect(migrationsCurrent(local, [first!, { ...second!, finished_at: null, rolled_back_at: new Date() }, second!])).toBe(true)
		// Only a rolled-back try: not applied.
		expect(migrationsCurrent(local, [first!, { ...second!, rolled_back_at: new Date() }])).toBe(false)
	})

	it('runs it for a migration edited after it was applied, one the folder does not have, or a folder without its SQL', () => {
		const [first, second] = allApplied()
		expect(migrationsCurrent(local, [first!, { ...second!, checksum: 'c'.repeat(64) }])).toBe(false)
		expect(migrationsCurrent(local, [...allApplied(), row('20260103000000_elsewhere', 'd'.repeat(64))])).toBe(false)
		expect(migrationsCurrent([local[0]!, { name: local[1]!.name, checksum: null }], allApplied())).toBe(false)
		expect(migrationsCurrent([], [])).toBe(false)
	})
})

describe("after Prisma's CLI ran, init checks that it applied every migration of the folder", () => {
	it('passes when each has a finished row, even beside rows the folder lacks or an edited checksum (Prisma warns of those)', () => {
		expect(everyMigrationFinished(local, allApplied())).toBe(true)
		expect(everyMigrationFinished(local, [...allApplied(), row('20260103000000_elsewhere', 'd'.repeat(64))])).toBe(true)
		const [first, second] = allApplied()
		expect(everyMigrationFinished(local, [first!, { ...second!, checksum: 'c'.repeat(64) }])).toBe(true)
	})

	it('fails when one is missing, unfinished or only rolled back, or the folder is empty', () => {
		const [first, second] = allApplied()
		expect(everyMigrationFinished(local, [first!])).toBe(false)
		expect(everyMigrationFinished(local, [first!, { ...second!, finished_at: null }])).toBe(false)
		expect(everyMigrationFinished(local, [first!, { ...second!, rolled_back_at: new Date() }])).toBe(false)
		expect(everyMigrationFinished([], [])).toBe(false)
	})
})

describe("the preload given to Prisma's CLI (decision 059)", () => {
	// The CLI's own arguments are replaced by a script; the preload is the first of prismaCli.
	const run = (script: string) => spawnSync(process.execPath, [prismaCli[0]!, '-e', script], { encoding: 'utf8', timeout: 30_000 })

	it('lets a process whose only work left is a timer of 10 s or more exit without waiting for it', () => {
		const result = run(`setTimeout(() => console.log('the timer held the process'), 60_000); console.log('done')`)
		expect(result.error).toBeUndefined()
		expect(result.status).toBe(0)
		expect(result.stdout.trim()).toBe('done')
	})

	it('unrefs only timers of 10 s or more: shorter ones stay referenced, as Node makes them', () => {
		const result = run(
			`const long = setTimeout(() => console.log('long fired'), 10_000); const short = setTimeout(() => {}, 50);` +
				`console.log(long.hasRef(), short.hasRef()); clearTimeout(long)`,
		)
		expect(result.status).toBe(0)
		expect(result.stdout.trim()).toBe('false true')
	})
})

describe.each(PROVIDERS)('migrations on %s', (provider) => {
	let t: TestDatabase
	beforeAll(async () => {
		t = await openTestDatabase(provider)
	})
	afterAll(async () => {
		await t?.db.$disconnect()
	})

	it('reads the folder in the order Prisma applies it, and finds a database migrated by Prisma current (the checksums agree)', async () => {
		const names = localMigrations(t.url).map((m) => m.name)
		expect(names.length).toBeGreaterThan(10)
		expect(names).toEqual([...names].sort())
		// This run's database was migrated by `prisma migrate deploy` (tests/setup/databases.global.ts).
		expect(await migrateDatabaseUnlessCurrent(t.url)).toBe('current')
	})
})

describe.each(PROVIDERS)('a new %s database', (provider) => {
	const dir = mkdtempSync(join(tmpdir(), 'store-migrate-'))
	let dropDatabase = async () => {}
	afterAll(async () => {
		await dropDatabase()
		rmSync(dir, { recursive: true, force: true })
	})

	it('is migrated by Prisma (whose CLI exits when done, decision 059), and found current the next time', async () => {
		let url = `file:${join(dir, 'new.db')}`
		if (provider === 'postgresql') {
			const created = await createTestDatabase('store_migrate')
			url = created.url
			dropDatabase = () => dropTestDatabase(created.name)
		}
		expect(await migrateDatabaseUnlessCurrent(url, { quiet: true })).toBe('applied')
		const db = createDb(url)
		try {
			expect(await db.product.count()).toBe(0)
		} finally {
			await db.$disconnect()
		}
		expect(await migrateDatabaseUnlessCurrent(url, { quiet: true })).toBe('current')
	})
})
