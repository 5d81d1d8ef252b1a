import type { FieldType } from './define'

/** A value a Module handed the data service that its definition does not allow: a 400, never a 500. */
export class ModuleInputError extends Error {}

const ID_LIKE = /^[A-Za-z0-9_-]{1,100}$/

/** The value as the field's type allows it, or a ModuleInputError naming the field. */
export function checkValue(name: string, field: FieldType, value: unknown, label: string): unknown {
	const fail = (why: string): never => {
		throw new ModuleInputError(`${label}: "${name}" ${why}`)
	}
	if (value === null || value === undefined) return field.optional ? null : fail('is required')
	switch (field.type) {
		case 'string': {
			if (typeof value !== 'string') return fail('must be text')
			// Characters as a person counts them (and PostgreSQL's VARCHAR does), not UTF-16 units.
			if ([...value].length > field.maxLength) fail(`is longer than ${field.maxLength} characters`)
			if (value.includes('\0')) fail('holds a NUL character')
			return value
		}
		case 'integer':
			if (typeof value !== 'number' || !Number.isInteger(value)) return fail('must be a whole number')
			if (value < field.min || value > field.max) fail(`must be from ${field.min} to ${field.max}`)
			return value
		case 'boolean':
			if (typeof value !== 'boolean') return fail('must be true or false')
			return value
		case 'timestamp':
			if (!(value instanceof Date) || Number.isNaN(value.getTime())) return fail('must be a date')
			return value
		case 'reference':
			if (typeof value !== 'string' || !ID_LIKE.test(value)) return fail('must be a record id')
			return value
	}
}

/** How each engine stores the value: SQLite keeps booleans as 0/1 and times as ISO 8601 text in UTC. */
export function toDatabase(value: unknown, field: FieldType | undefined, pg: boolean): unknown {
	if (value === null || value === undefined) return null
	if (value instanceof Date) return value.toISOString()
	if (field?.type === 'boolean' && !pg) return value ? 1 : 0
	return value
}

/** The value as Module code sees it, whichever engine stored it. */
export function fromDatabase(value: unknown, field: FieldType): unknown {
	if (value === null || value === undefined) return null
	switch (field.type) {
		case 'integer':
			return typeof value === 'bigint' ? Number(value) : Number(value)
		case 'boolean':
			return value === true || value === 1 || value === 1n || value === '1' || value === 't'
		case 'timestamp':
			return value instanceof Date ? value : new Date(typeof value === 'number' ? value : String(value))
		default:
			return String(value)
	}
}
