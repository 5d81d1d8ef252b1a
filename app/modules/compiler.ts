/**
 * The Module compiler [R31]: definitions in, SQL for both engines out. It compares the
 * definitions with the snapshot of what the committed migrations already built
 * (app/modules/compiled.json) and writes only the difference, the way Prisma's migrate diff
 * compares two schemas. It adds what no Module may forget (row id, Store id, timestamps, an index
 * led by the Store id) and never drops or retypes a column by itself: data is not thrown away by
 * a tool.
 */
import { CORE_TABLES, type FieldType, type ModuleDefinition, ModuleDefinitionError, quoted as q, tableOf, viewTableOf } from './define'

export type Engine = 'sqlite' | 'postgresql'
export const ENGINES: readonly Engine[] = ['sqlite', 'postgresql']

/** The type a view column has for the Module code that reads it. */
export type ViewColumnType = 'string' | 'integer' | 'boolean' | 'timestamp'

/** A view the core publishes: its SQL reads core tables and exposes only `columns` (plus id and store_id). */
export type CoreView = { name: string; columns: Readonly<Record<string, ViewColumnType>>; select: string }

type CompiledModule = Omit<ModuleDefinition, 'id' | 'reads'>
export type Snapshot = { modules: Record<string, CompiledModule>; views: Record<string, string> }
export const EMPTY_SNAPSHOT: Snapshot = { modules: {}, views: {} }

function columnType(field: FieldType, engine: Engine) {
	const pg = engine === 'postgresql'
	switch (field.type) {
		case 'string':
			return pg ? `VARCHAR(${field.maxLength})` : 'TEXT'
		case 'integer':
			return 'INTEGER'
		case 'boolean':
			return pg ? 'BOOLEAN' : 'INTEGER'
		case 'timestamp':
			return pg ? 'TIMESTAMPTZ(3)' : 'TEXT'
		case 'reference':
			return 'TEXT'
	}
}

function columnDdl(name: string, field: FieldType, engine: Engine) {
	const parts = [q(name), columnType(field, engine)]
	if (!field.optional) parts.push('NOT NULL')
	if (field.type === 'integer') parts.push(`CHECK (${q(name)} BETWEEN ${field.min} AND ${field.max})`)
	if (field.type === 'boolean' && engine === 'sqlite') parts.push(`CHECK (${q(name)} IN (0, 1))`)
	if (field.type === 'reference') parts.push(`REFERENCES ${q(CORE_TABLES[field.to]!)} ("id") ON DELETE CASCADE`)
	return parts.join(' ')
}

const indexName = (moduleId: string, fields: readonly string[], unique?: boolean) =>
	`${tableOf(moduleId)}_${fields.join('_')}_${unique ? 'key' : 'idx'}`.slice(0, 63)

function indexDdl(moduleId: string, index: { fields: readonly string[]; unique?: boolean }) {
	const columns = ['store_id', ...index.fields].map(q).join(', ')
	return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${q(indexName(moduleId, index.fields, index.unique))} ON ${q(tableOf(moduleId))} (${columns});`
}

function createTable(definition: CompiledModule & { id: string }, engine: Engine) {
	const stamp = engine === 'postgresql' ? 'TIMESTAMPTZ(3)' : 'TEXT'
	const columns = [
		`${q('id')} TEXT NOT NULL PRIMARY KEY`,
		`${q('store_id')} TEXT NOT NULL REFERENCES ${q('stores')} ("id") ON DELETE CASCADE`,
		...Object.entries(definition.fields).map(([name, field]) => columnDdl(name, field, engine)),
		`${q('created_at')} ${stamp} NOT NULL`,
		`${q('updated_at')} ${stamp} NOT NULL`,
	]
	return [
		`CREATE TABLE ${q(tableOf(definition.id))} (\n    ${columns.join(',\n    ')}\n);`,
		// Every query the data service makes starts with the Store; lists are ordered by creation.
		indexDdl(definition.id, { fields: ['created_at', 'id'] }),
		...(definition.indexes ?? []).map((index) => indexDdl(definition.id, index)),
	]
}

/** The SELECT behind each published view, keyed by view name: the Store id and the listed columns only. */
export function viewSelects(definitions: readonly ModuleDefinition[], coreViews: readonly CoreView[]) {
	const selects: Record<string, string> = {}
	for (const view of coreViews) selects[view.name] = view.select
	for (const definition of definitions)
		for (const view of definition.publishes ?? []) {
			if (selects[view.name]) throw new ModuleDefinitionError(`the view "${view.name}" is published twice`)
			selects[view.name] = `SELECT ${['id', 'store_id', ...view.columns.filter((c) => c !== 'id')].map(q).join(', ')} FROM ${q(tableOf(definition.id))}`
		}
	return selects
}

/** Every view a definition reads must be published by someone. */
export function checkReads(definitions: readonly ModuleDefinition[], coreViews: readonly CoreView[]) {
	const published = new Set(Object.keys(viewSelects(definitions, coreViews)))
	for (const definition of definitions)
		for (const name of definition.reads ?? [])
			if (!published.has(name)) throw new ModuleDefinitionError(`Module "${definition.id}" reads "${name}", which no one publishes`)
}

const compiled = ({ version, fields, indexes, publishes }: ModuleDefinition): CompiledModule =>
	JSON.parse(JSON.stringify({ version, fields, indexes: indexes ?? [], publishes: publishes ?? [] }))
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

export type Plan = { statements: Record<Engine, string[]>; snapshot: Snapshot; changed: string[] }

/**
 * What the migrations must add to go from `before` to the definitions. Refuses, naming the
 * Module, a change it will not make by itself: a dropped Module or field, a retyped field, a new
 * required field on a table that may have rows, or a changed definition under the same version.
 */
export function plan(before: Snapshot, definitions: readonly ModuleDefinition[], coreViews: readonly CoreView[]): Plan {
	checkReads(definitions, coreViews)
	const statements: Record<Engine, string[]> = { sqlite: [], postgresql: [] }
	const changed: string[] = []
	const after: Snapshot = { modules: {}, views: viewSelects(definitions, coreViews) }
	const fail = (id: string, why: string): never => {
		throw new ModuleDefinitionError(`Module "${id}": ${why}`)
	}
	for (const id of Object.keys(before.modules))
		if (!definitions.some((d) => d.id === id))
			fail(id, 'is in the compiled snapshot but no longer defined; removing a Module’s table is a migration you write by hand')

	// Views first go (they may select columns that change), then tables, then views come back.
	const viewsChanged = Object.keys({ ...before.views, ...after.views }).filter((name) => before.views[name] !== after.views[name])
	for (const engine of ENGINES)
		for (const name of viewsChanged.filter((n) => before.views[n])) statements[engine].push(`DROP VIEW IF EXISTS ${q(viewTableOf(name))};`)

	for (const definition of definitions) {
		const next = compiled(definition)
		after.modules[definition.id] = next
		const previous = before.modules[definition.id]
		if (!previous) {
			changed.push(definition.id)
			for (const engine of ENGINES) statements[engine].push(...createTable({ id: definition.id, ...next }, engine))
			continue
		}
		if (same(previous, next)) continue
		if (next.version <= previous.version) fail(definition.id, `its definition changed; raise its version above ${previous.version}`)
		changed.push(definition.id)
		for (const [name, field] of Object.entries(previous.fields)) {
			if (!next.fields[name]) fail(definition.id, `the field "${name}" is gone; dropping a column is a migration you write by hand`)
			if (!same(field, next.fields[name])) fail(definition.id, `the field "${name}" changed type or limits; that is a migration you write by hand`)
		}
		for (const [name, field] of Object.entries(next.fields)) {
			if (previous.fields[name]) continue
			if (!field.optional) fail(definition.id, `the new field "${name}" must be optional: the table may already have rows`)
			for (const engine of ENGINES) statements[engine].push(`ALTER TABLE ${q(tableOf(definition.id))} ADD COLUMN ${columnDdl(name, field, engine)};`)
		}
		const key = (i: { fields: readonly string[]; unique?: boolean }) => indexName(definition.id, i.fields, i.unique)
		const beforeIndexes = new Map((previous.indexes ?? []).map((i) => [key(i), i]))
		const afterIndexes = new Map((next.indexes ?? []).map((i) => [key(i), i]))
		for (const engine of ENGINES) {
			for (const name of beforeIndexes.keys()) if (!afterIndexes.has(name)) statements[engine].push(`DROP INDEX IF EXISTS ${q(name)};`)
			for (const [name, index] of afterIndexes) if (!beforeIndexes.has(name)) statements[engine].push(indexDdl(definition.id, index))
		}
	}
	for (const name of viewsChanged.filter((n) => after.views[n])) {
		changed.push(`view:${name}`)
		for (const engine of ENGINES) statements[engine].push(`CREATE VIEW ${q(viewTableOf(name))} AS ${after.views[name]};`)
	}
	return { statements, snapshot: after, changed }
}

/** A migration file's text: the statements under a header that says where they came from. */
export function migrationSql(statements: readonly string[]) {
	return `-- Written by \`npm run modules:compile\` from the Module definitions (app/modules/registry.ts).\n${statements.join('\n')}\n`
}
