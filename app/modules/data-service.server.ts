/**
 * ModuleDataService [R31]: the only way Module code reaches its rows. A technical boundary, as
 * the spec says: it checks types and lengths and keeps every statement inside the runtime's
 * Store, and it does NOT check that a session owns a record: that is the repository above it,
 * built by repositoriesFor(viewer). Module code names fields, never tables or SQL; the table is
 * its own `mod_<id>`, and foreign data comes only through the views its definition reads [R32].
 */
import { randomUUID } from 'node:crypto'
import type { Db } from '../data/db.server'
import { engineOf } from '../data/db.server'
import type { StoreScope } from '../data/scope'
import { type SharedCache, sharedCache } from '../data/shared-cache.server'
import { isUniqueViolation } from '../data/unique-violation'
import type { ViewColumnType } from './compiler'
import { CORE_VIEWS } from './core-views'
import { CORE_TABLES, type FieldType, type ModuleDefinition, quoted as q, tableOf, viewTableOf } from './define'
import { MODULES } from './registry'
import { ModuleInputError, checkValue, fromDatabase, toDatabase } from './values'

export { ModuleInputError }

type Scalar<F extends FieldType> = F extends { type: 'integer' }
	? number
	: F extends { type: 'boolean' }
		? boolean
		: F extends { type: 'timestamp' }
			? Date
			: string
type Value<F extends FieldType> = F extends { optional: true } ? Scalar<F> | null : Scalar<F>
type Fields<D extends ModuleDefinition> = D['fields']
export type Values<D extends ModuleDefinition> = { [K in keyof Fields<D>]: Value<Fields<D>[K]> }
export type Row<D extends ModuleDefinition> = Values<D> & { id: string; created_at: Date; updated_at: Date }
type Filterable<D extends ModuleDefinition> = Partial<{ [K in keyof Row<D>]: Row<D>[K] | { in: readonly Row<D>[K][] } | { not: null } }>
export type ListOptions<D extends ModuleDefinition> = {
	where?: Filterable<D>
	orderBy?: { field: keyof Row<D> & string; direction?: 'asc' | 'desc' }
	limit?: number
	/** The `next` of the page before. */
	cursor?: string | null
}
export type Page<R> = { rows: R[]; next: string | null }

/** A unique index already holds these values (e.g. a second review of the same product). */
export class ModuleConflictError extends Error {}

export const MAX_PAGE = 100
type Column = { name: string; field: FieldType }
type Source = { table: string; columns: Map<string, FieldType>; label: string }

/** Statements over one table or view of one Store, written for the engine behind `db`. */
function statements(db: Db, storeId: string, source: Source) {
	const pg = engineOf(db) === 'postgresql'
	const params: unknown[] = []
	const param = (value: unknown, field?: FieldType) => {
		params.push(toDatabase(value, field, pg))
		const cast = pg && field?.type === 'timestamp' ? '::timestamptz' : ''
		return `${pg ? `$${params.length}` : '?'}${cast}`
	}
	const column = (name: string): Column => {
		const field = source.columns.get(name)
		if (!field) throw new ModuleInputError(`${source.label} has no field "${name}"`)
		return { name, field }
	}
	const where = (filter: Record<string, unknown> = {}) => {
		const parts = [`${q('store_id')} = ${param(storeId)}`]
		for (const [name, condition] of Object.entries(filter)) {
			if (condition === undefined) continue
			const { field } = column(name)
			if (condition === null) parts.push(`${q(name)} IS NULL`)
			else if (typeof condition === 'object' && !(condition instanceof Date) && 'not' in (condition as object)) {
				if ((condition as { not: unknown }).not !== null) throw new ModuleInputError(`${source.label}: "${name}" can be compared with { not: null } only`)
				parts.push(`${q(name)} IS NOT NULL`)
			} else if (typeof condition === 'object' && !(condition instanceof Date) && 'in' in (condition as object)) {
				const values = (condition as { in: unknown[] }).in
				if (values.length === 0) parts.push('1 = 0')
				else parts.push(`${q(name)} IN (${values.map((v) => param(checkValue(name, field, v, source.label), field)).join(', ')})`)
			} else parts.push(`${q(name)} = ${param(checkValue(name, field, condition, source.label), field)}`)
		}
		return parts.join(' AND ')
	}
	return { pg, params, param, column, where }
}

function readRow(source: Source, raw: Record<string, unknown>) {
	const row: Record<string, unknown> = {}
	for (const [name, field] of source.columns) row[name] = fromDatabase(raw[name], field)
	return row
}

const encodeCursor = (value: unknown, id: string) =>
	Buffer.from(JSON.stringify([value instanceof Date ? value.toISOString() : value, id])).toString('base64url')
function decodeCursor(cursor: string): [unknown, string] {
	try {
		const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
		if (Array.isArray(decoded) && decoded.length === 2 && typeof decoded[1] === 'string') return decoded as [unknown, string]
	} catch {
		// fall through
	}
	throw new ModuleInputError('the cursor is not one this list gave')
}

/** Reads of a table or view: filter, order, cursor pages, count, average. */
function reader(db: Db, storeId: string, source: Source) {
	async function list(
		options: { where?: Record<string, unknown>; orderBy?: { field: string; direction?: 'asc' | 'desc' }; limit?: number; cursor?: string | null } = {},
	) {
		const s = statements(db, storeId, source)
		const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? 20)), MAX_PAGE)
		const order =
			options.orderBy ?? (source.columns.has('created_at') ? { field: 'created_at', direction: 'desc' as const } : { field: 'id', direction: 'asc' as const })
		const { name, field } = s.column(order.field)
		// Cursor pages compare values, and NULL compares to nothing: order by a field every row has.
		if (field.optional && name !== 'id') throw new ModuleInputError(`${source.label}: order by a required field, not "${name}"`)
		const desc = order.direction !== 'asc'
		let condition = s.where(options.where)
		if (options.cursor) {
			const [value, id] = decodeCursor(options.cursor)
			const last = checkValue(name, field, field.type === 'timestamp' && typeof value === 'string' ? new Date(value) : value, source.label)
			const cmp = desc ? '<' : '>'
			// One placeholder per use: SQLite's `?` are positional.
			condition += ` AND (${q(name)} ${cmp} ${s.param(last, field)} OR (${q(name)} = ${s.param(last, field)} AND ${q('id')} ${cmp} ${s.param(id)}))`
		}
		const sql = `SELECT ${[...source.columns.keys()].map(q).join(', ')} FROM ${q(source.table)} WHERE ${condition} ORDER BY ${q(name)} ${desc ? 'DESC' : 'ASC'}, ${q('id')} ${desc ? 'DESC' : 'ASC'} LIMIT ${limit + 1}`
		const raw = (await db.$queryRawUnsafe(sql, ...s.params)) as Record<string, unknown>[]
		const rows = raw.slice(0, limit).map((r) => readRow(source, r) as Record<string, unknown> & { id: string })
		const last = rows.at(-1)
		return { rows, next: raw.length > limit && last ? encodeCursor(last[name], last.id) : null }
	}
	async function count(where?: Record<string, unknown>) {
		const s = statements(db, storeId, source)
		const raw = (await db.$queryRawUnsafe(`SELECT COUNT(*) AS n FROM ${q(source.table)} WHERE ${s.where(where)}`, ...s.params)) as { n: unknown }[]
		return Number(raw[0]?.n ?? 0)
	}
	async function average(fieldName: string, where?: Record<string, unknown>) {
		const s = statements(db, storeId, source)
		const { field } = s.column(fieldName)
		if (field.type !== 'integer') throw new ModuleInputError(`"${fieldName}" is not a number`)
		const raw = (await db.$queryRawUnsafe(`SELECT AVG(${q(fieldName)}) AS a, COUNT(*) AS n FROM ${q(source.table)} WHERE ${s.where(where)}`, ...s.params)) as {
			a: unknown
			n: unknown
		}[]
		const n = Number(raw[0]?.n ?? 0)
		return { count: n, average: n === 0 ? null : Number(raw[0]?.a) }
	}
	return { list, count, average }
}

const ID: [string, FieldType] = ['id', { type: 'string', maxLength: 100 }]
const TIMESTAMP: FieldType = { type: 'timestamp' }
const SYSTEM: [string, FieldType][] = [ID, ['created_at', TIMESTAMP], ['updated_at', TIMESTAMP]]

/**
 * The data service of one Module inside one Store. Build it with the runtime's or the viewer's
 * scope (never a Store id from a request); inside a transaction, with a scope over that
 * transaction's client, so the Module's rows commit with the core's.
 */
export function moduleData<const D extends ModuleDefinition>(scope: StoreScope, definition: D) {
	const { db, storeId } = scope
	const table = tableSource(definition)
	const rows = reader(db, storeId, table)
	type R = Row<D>

	/** A reference must name a record of this Store: another Store's id is as good as none. */
	async function checkReferences(values: Record<string, unknown>) {
		for (const [name, value] of Object.entries(values)) {
			const field = definition.fields[name]
			if (field?.type !== 'reference' || value === null || value === undefined) continue
			const s = statements(db, storeId, { table: CORE_TABLES[field.to], columns: new Map(), label: field.to })
			const found = (await db.$queryRawUnsafe(
				`SELECT 1 AS ok FROM ${q(CORE_TABLES[field.to])} WHERE ${q('id')} = ${s.param(value)} AND ${q('storeId')} = ${s.param(storeId)}`,
				...s.params,
			)) as unknown[]
			if (found.length === 0) throw new ModuleInputError(`${table.label}: "${name}" names no ${field.to} of this Store`)
		}
	}

	function checked(values: Record<string, unknown>, { partial }: { partial: boolean }) {
		const out: Record<string, unknown> = {}
		for (const name of Object.keys(values)) if (!(name in definition.fields)) throw new ModuleInputError(`${table.label} has no field "${name}"`)
		for (const [name, field] of Object.entries(definition.fields)) {
			if (!(name in values)) {
				if (partial) continue
				if (!field.optional) throw new ModuleInputError(`${table.label}: "${name}" is required`)
				out[name] = null
				continue
			}
			out[name] = checkValue(name, field, values[name], table.label)
		}
		return out
	}

	async function get(id: string): Promise<R | null> {
		if (typeof id !== 'string' || id.length > 100) return null
		const { rows: found } = await rows.list({ where: { id } as never, limit: 1 })
		return (found[0] as R | undefined) ?? null
	}

	const cache = cacheOf(definition)
	const forget = () => cache.forgetAll()

	return {
		definition,
		/**
		 * A read every viewer of this Store sees alike (never one viewer's own rows), kept in memory
		 * for up to 30 s and forgotten by every write of this Module through its data service. A
		 * write inside a transaction calls `forgetCached()` again once it commits.
		 */
		cached<T>(key: string, load: () => Promise<T>): Promise<T> {
			return cache.get(`${storeId}\u0000${key}`, load) as Promise<T>
		},
		forgetCached: forget,
		async create(values: Values<D>): Promise<R> {
			const data = checked(values as Record<string, unknown>, { partial: false })
			await checkReferences(data)
			const now = new Date()
			const all: [string, unknown, FieldType | undefined][] = [
				['id', randomUUID(), undefined],
				['store_id', storeId, undefined],
				...Object.entries(data).map(([n, v]): [string, unknown, FieldType] => [n, v, definition.fields[n]!]),
				['created_at', now, TIMESTAMP],
				['updated_at', now, TIMESTAMP],
			]
			const s = statements(db, storeId, table)
			const sql = `INSERT INTO ${q(table.table)} (${all.map(([n]) => q(n)).join(', ')}) VALUES (${all.map(([, v, f]) => s.param(v, f)).join(', ')})`
			try {
				await db.$executeRawUnsafe(sql, ...s.params)
			} catch (error) {
				if (isUniqueViolation(error)) throw new ModuleConflictError(`${table.label}: a row with these values exists`)
				throw error
			} finally {
				forget()
			}
			return { ...(data as Values<D>), id: all[0]![1] as string, created_at: now, updated_at: now } as R
		},
		get,
		/** The first row that matches, or null. */
		async find(where: Filterable<D>): Promise<R | null> {
			const { rows: found } = await rows.list({ where: where as Record<string, unknown>, limit: 1 })
			return (found[0] as R | undefined) ?? null
		},
		list: (options: ListOptions<D> = {}) => rows.list(options as never) as Promise<Page<R>>,
		count: (where?: Filterable<D>) => rows.count(where as Record<string, unknown>),
		average: (field: keyof Values<D> & string, where?: Filterable<D>) => rows.average(field, where as Record<string, unknown>),
		/** Changes the listed fields of the row with this id in this Store; null when there is none. */
		async update(id: string, values: Partial<Values<D>>, where: Filterable<D> = {}): Promise<R | null> {
			const data = checked(values as Record<string, unknown>, { partial: true })
			await checkReferences(data)
			const s = statements(db, storeId, table)
			const sets = [
				...Object.entries(data).map(([n, v]) => `${q(n)} = ${s.param(v, definition.fields[n])}`),
				`${q('updated_at')} = ${s.param(new Date(), TIMESTAMP)}`,
			]
			const condition = s.where({ ...(where as Record<string, unknown>), id })
			try {
				const changed = await db.$executeRawUnsafe(`UPDATE ${q(table.table)} SET ${sets.join(', ')} WHERE ${condition}`, ...s.params)
				if (changed === 0) return null
			} catch (error) {
				if (isUniqueViolation(error)) throw new ModuleConflictError(`${table.label}: a row with these values exists`)
				throw error
			} finally {
				forget()
			}
			return get(id)
		},
		/** Deletes the row with this id in this Store (and matching `where`); whether one went. */
		async delete(id: string, where: Filterable<D> = {}): Promise<boolean> {
			const s = statements(db, storeId, table)
			try {
				return (await db.$executeRawUnsafe(`DELETE FROM ${q(table.table)} WHERE ${s.where({ ...(where as Record<string, unknown>), id })}`, ...s.params)) > 0
			} finally {
				forget()
			}
		},
		/** A published view this Module declared it reads: only the view's own columns, only this Store. */
		view(name: string) {
			if (!(definition.reads ?? []).includes(name)) throw new ModuleInputError(`${table.label} does not read the view "${name}"`)
			const source = viewSources().get(name)
			if (!source) throw new ModuleInputError(`no one publishes the view "${name}"`)
			return reader(db, storeId, source)
		},
	}
}

export type ModuleDataService<D extends ModuleDefinition> = ReturnType<typeof moduleData<D>>

/** Each Module's shared read cache (`cached`), one per definition, told apart across processes by its id. */
const caches = new WeakMap<ModuleDefinition, SharedCache<unknown>>()
function cacheOf(definition: ModuleDefinition): SharedCache<unknown> {
	let cache = caches.get(definition)
	if (!cache) caches.set(definition, (cache = sharedCache({ topic: `module:${definition.id}`, ttlMs: 30_000, max: 500 })))
	return cache
}

/** A Module's table as the service reads it, worked out once per definition (repositories are built per request). */
const tables = new WeakMap<ModuleDefinition, Source>()
function tableSource(definition: ModuleDefinition): Source {
	let source = tables.get(definition)
	if (!source) {
		source = { table: tableOf(definition.id), columns: new Map([...Object.entries(definition.fields), ...SYSTEM]), label: `Module "${definition.id}"` }
		tables.set(definition, source)
	}
	return source
}

/** A core view column's type as the service checks filters against it (any value a column may hold). */
const viewField = (type: ViewColumnType): FieldType =>
	type === 'integer'
		? { type, min: -2_147_483_648, max: 2_147_483_647, optional: true }
		: type === 'string'
			? { type, maxLength: 10_000, optional: true }
			: { type, optional: true }

let published: Map<string, Source> | undefined
/** Every published view and its columns: the core's, and those Modules publish from their own fields. */
function viewSources() {
	published ??= new Map([
		...CORE_VIEWS.map((view): [string, Source] => [
			view.name,
			{
				table: viewTableOf(view.name),
				columns: new Map([ID, ...Object.entries(view.columns).map(([c, t]): [string, FieldType] => [c, viewField(t)])]),
				label: `the view "${view.name}"`,
			},
		]),
		...(MODULES as readonly ModuleDefinition[]).flatMap((definition) =>
			(definition.publishes ?? []).map((view): [string, Source] => [
				view.name,
				{
					table: viewTableOf(view.name),
					columns: new Map([
						ID,
						...view.columns.filter((c) => c !== 'id').map((c): [string, FieldType] => [c, c === 'created_at' ? TIMESTAMP : definition.fields[c]!]),
					]),
					label: `the view "${view.name}"`,
				},
			]),
		),
	])
	return published
}
