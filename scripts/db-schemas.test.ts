import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ENGINES, schemaFile, schemaFor } from './lib/prisma-schemas.ts'

const script = path.resolve('scripts/db-schemas.ts')
const tsx = path.resolve('node_modules/.bin/tsx')

describe('one models source for both engines (both engines first-class)', () => {
	it.each(ENGINES)('the committed %s schema is exactly what prisma/models.prisma gives', (engine) => {
		expect(readFileSync(schemaFile(engine), 'utf8')).toBe(schemaFor(engine))
	})

	it('gives each engine its own provider and client output, and the same models', () => {
		const [sqlite, postgresql] = ENGINES.map((engine) => schemaFor(engine))
		expect(sqlite).toContain('provider = "sqlite"')
		expect(postgresql).toContain('provider = "postgresql"')
		expect(postgresql).toContain('app/data/generated/postgresql')
		const models = (text: string) => text.slice(text.indexOf('model Store {'))
		expect(models(sqlite!)).toBe(models(postgresql!))
	})

	describe('db:schemas --check', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'store-schemas-'))
		cpSync('prisma', path.join(dir, 'prisma'), { recursive: true, filter: (src) => !src.includes('migrations') })
		afterAll(() => rmSync(dir, { recursive: true, force: true }))
		const check = () => spawnSync(tsx, [script, '--check'], { cwd: dir, encoding: 'utf8' })

		it('passes on the committed files', () => {
			expect(check().status).toBe(0)
		})

		it('fails, naming the file, when a generated schema was edited by hand', () => {
			const file = path.join(dir, 'prisma/postgresql/schema.prisma')
			writeFileSync(file, readFileSync(file, 'utf8').replace('model Store {', 'model Store {\n  extra String?'))
			const run = check()
			expect(run.status).toBe(1)
			expect(run.stderr).toContain('prisma/postgresql/schema.prisma differs from prisma/models.prisma')
		})
	})
})
