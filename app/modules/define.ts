/**
 * What a Module is: a definition in code that the compiler turns into a `mod_<id>` table on both
 * engines [R31]. A Module names its fields and indexes; the compiler adds the row id, the Store id
 * and the timestamps, so no Module can forget the Store or spell it differently.
 */
export type CoreRecord = 'product' | 'user' | 'order'

export type FieldType =
	| { type: 'string'; maxLength: number; optional?: boolean }
	| { type: 'integer'; min: number; max: number; optional?: boolean }
	| { type: 'boolean'; optional?: boolean }
	| { type: 'timestamp'; optional?: boolean }
	/** The id of a core record of the same Store; the row goes when the record goes. */
	| { type: 'reference'; to: CoreRecord; optional?: boolean }

export type IndexDefinition = { fields: readonly string[]; unique?: boolean }

/** A read-only projection of this Module's rows that other Modules may read: only these columns. */
export type PublishedView = { name: string; columns: readonly string[] }

export type ModuleDefinition = {
	id: string
	version: number
	fields: Readonly<Record<string, FieldType>>
	indexes?: readonly IndexDefinition[]
	/** Views this Module reads (core ones such as `purchases`, or another Module's). */
	reads?: readonly string[]
	publishes?: readonly PublishedView[]
}

/** Columns every Module table has, written by the compiler and the data service only. */
export const SYSTEM_COLUMNS = ['id', 'store_id', 'created_at', 'updated_at'] as const

const NAME = /^[a-z][a-z0-9_]*$/
/** Long enough for a readable name; PostgreSQL cuts identifiers at 63 bytes, `mod_` and `view_` included. */
const MAX_NAME = 40
/** The most a string field may hold: larger text belongs in an upload, not a row. */
export const MAX_STRING_LENGTH = 10_000

export class ModuleDefinitionError extends Error {}

/** Checks a definition's names, types and indexes; returns it unchanged, typed. */
export function defineModule<const D extends ModuleDefinition>(definition: D): D {
	const fail = (why: string): never => {
		throw new ModuleDefinitionError(`Module "${definition.id}": ${why}`)
	}
	if (!NAME.test(definition.id) || definition.id.length > MAX_NAME) fail('the id must match [a-z][a-z0-9_]* (at most 40 characters)')
	if (!Number.isInteger(definition.version) || definition.version < 1) fail('the version is a whole number from 1')
	const names = Object.keys(definition.fields)
	if (names.length === 0) fail('a Module has at least one field')
	for (const name of names) {
		if (!NAME.test(name) || name.length > MAX_NAME) fail(`the field "${name}" must match [a-z][a-z0-9_]*`)
		if ((SYSTEM_COLUMNS as readonly string[]).includes(name)) fail(`"${name}" is a column the compiler adds`)
		const field = definition.fields[name]!
		if (field.type === 'string' && !(Number.isInteger(field.maxLength) && field.maxLength >= 1 && field.maxLength <= MAX_STRING_LENGTH))
			fail(`the field "${name}" needs a maxLength from 1 to ${MAX_STRING_LENGTH}`)
		if (field.type === 'integer' && !(Number.isSafeInteger(field.min) && Number.isSafeInteger(field.max) && field.min <= field.max))
			fail(`the field "${name}" needs a whole-number range`)
		if (field.type === 'integer' && (field.min < -2_147_483_648 || field.max > 2_147_483_647)) fail(`the field "${name}" must fit in 32 bits`)
	}
	for (const index of definition.indexes ?? []) {
		if (index.fields.length === 0) fail('an index names at least one field')
		for (const field of index.fields) if (!(field in definition.fields) && field !== 'created_at') fail(`the index names "${field}", which is not a field`)
	}
	for (const view of definition.publishes ?? []) {
		if (!NAME.test(view.name) || view.name.length > MAX_NAME) fail(`the view "${view.name}" must match [a-z][a-z0-9_]*`)
		for (const column of view.columns)
			if (!(column in definition.fields) && column !== 'id' && column !== 'created_at') fail(`the view "${view.name}" names "${column}", which is not a field`)
	}
	return definition
}

/** The core table behind each kind of reference (every one has an `id` and a `storeId`). */
export const CORE_TABLES: Readonly<Record<CoreRecord, string>> = { product: 'products', user: 'users', order: 'orders' }

/** A quoted SQL identifier; only names a definition passed `defineModule` (or the core's own) reach it. */
export const quoted = (name: string) => `"${name}"`

export const tableOf = (moduleId: string) => `mod_${moduleId}`
export const viewTableOf = (viewName: string) => `view_${viewName}`
