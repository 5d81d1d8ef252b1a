import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { currentPlan, readSnapshot, writePlan } from '../../scripts/lib/modules'
import { EMPTY_SNAPSHOT, plan } from './compiler'
import { CORE_VIEWS } from './core-views'
import { ModuleDefinitionError, defineModule } from './define'
import { MODULES } from './registry'
import { reviewsModule } from './reviews/definition'

const notes = defineModule({
	id: 'notes',
	version: 1,
	fields: { text: { type: 'string', maxLength: 20 } },
	publishes: [{ name: 'note_texts', columns: ['text'] }],
})

describe('the Module compiler [R31]', () => {
	it('finds the committed migrations in step with the definitions (a definition changed without its migration fails here)', () => {
		expect(currentPlan().changed).toEqual([])
		for (const module of MODULES) expect(readSnapshot().modules[module.id]?.version).toBe(module.version)
	})

	it('creates mod_<id> with the Store id, timestamps and a Store-led index on both engines', () => {
		const { statements } = plan(EMPTY_SNAPSHOT, [notes], [])
		for (const engine of ['sqlite', 'postgresql'] as const) {
			const sql = statements[engine].join('\n')
			expect(sql).toContain('CREATE TABLE "mod_notes"')
			expect(sql).toMatch(/"store_id" TEXT NOT NULL REFERENCES "stores"/)
			expect(sql).toMatch(/"created_at" .* NOT NULL/)
			expect(sql).toContain('ON "mod_notes" ("store_id", "created_at", "id")')
			expect(sql).toContain('CREATE VIEW "view_note_texts" AS SELECT "id", "store_id", "text" FROM "mod_notes"')
		}
		expect(statements.postgresql.join('\n')).toContain('"text" VARCHAR(20) NOT NULL')
	})

	it('turns a new optional field and a new index into ALTER and CREATE INDEX, once', () => {
		const before = plan(EMPTY_SNAPSHOT, [notes], []).snapshot
		const next = defineModule({
			...notes,
			version: 2,
			fields: { ...notes.fields, pinned: { type: 'boolean', optional: true } },
			indexes: [{ fields: ['pinned'] }],
		})
		const result = plan(before, [next], [])
		expect(result.changed).toEqual(['notes'])
		expect(result.statements.sqlite).toEqual([
			'ALTER TABLE "mod_notes" ADD COLUMN "pinned" INTEGER CHECK ("pinned" IN (0, 1));',
			'CREATE INDEX "mod_notes_pinned_idx" ON "mod_notes" ("store_id", "pinned");',
		])
		expect(result.statements.postgresql[0]).toBe('ALTER TABLE "mod_notes" ADD COLUMN "pinned" BOOLEAN;')
		expect(plan(result.snapshot, [next], []).changed).toEqual([])
	})

	it('refuses what it will not do by itself: the same version, a dropped or retyped field, a new required field, a dropped Module', () => {
		const before = plan(EMPTY_SNAPSHOT, [notes], []).snapshot
		const cases = [
			{ ...notes, fields: { text: { type: 'string', maxLength: 30 } } },
			{ ...notes, version: 2, fields: { text: { type: 'string', maxLength: 30 } } },
			{ ...notes, version: 2, fields: { other: { type: 'string', maxLength: 30 } } },
			{ ...notes, version: 2, fields: { ...notes.fields, count: { type: 'integer', min: 0, max: 9 } } },
		] as const
		for (const definition of cases) expect(() => plan(before, [definition as never], []), JSON.stringify(definition)).toThrow(ModuleDefinitionError)
		expect(() => plan(before, [], [])).toThrow(/no longer defined/)
	})

	it('refuses a definition that reads a view no one publishes, or a bad name', () => {
		expect(() => plan(EMPTY_SNAPSHOT, [{ ...notes, reads: ['orders'] }], CORE_VIEWS)).toThrow(/no one publishes/)
		expect(() => defineModule({ id: 'Bad-Id', version: 1, fields: { a: { type: 'boolean' } } })).toThrow(ModuleDefinitionError)
		expect(() => defineModule({ id: 'ok', version: 1, fields: { store_id: { type: 'string', maxLength: 5 } } })).toThrow(/the compiler adds/)
		expect(() => defineModule({ id: 'ok', version: 1, fields: { a: { type: 'string', maxLength: 0 } } })).toThrow(ModuleDefinitionError)
	})

	it('writes a definition change as the next migration of each engine and the new snapshot', () => {
		const root = mkdtempSync(join(tmpdir(), 'modules-compile-'))
		try {
			cpSync('prisma', root, { recursive: true })
			const changedReviews = defineModule({
				...reviewsModule,
				version: reviewsModule.version + 1,
				fields: { ...reviewsModule.fields, helpful: { type: 'integer', min: 0, max: 1_000_000, optional: true } },
			})
			const modules = MODULES.map((m) => (m.id === changedReviews.id ? changedReviews : m))
			const result = plan(readSnapshot(join(root, 'modules.json')), modules, CORE_VIEWS)
			const name = writePlan(result, root, join(root, 'modules.json'))
			const newest = (engine: string) =>
				readdirSync(join(root, engine, 'migrations'))
					.filter((n) => /^\d{14}_/.test(n))
					.sort()
					.at(-1)
			expect(newest('sqlite')).toBe(name)
			expect(newest('postgresql')).toBe(name)
			expect(readFileSync(join(root, 'postgresql', 'migrations', name, 'migration.sql'), 'utf8')).toContain(
				'ALTER TABLE "mod_reviews" ADD COLUMN "helpful" INTEGER CHECK',
			)
			expect(plan(readSnapshot(join(root, 'modules.json')), modules, CORE_VIEWS).changed).toEqual([])
		} finally {
			rmSync(root, { recursive: true, force: true })
		}
	})
})
