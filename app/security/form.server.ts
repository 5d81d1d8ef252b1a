import { data } from 'react-router'
import { z } from 'zod'
import type { Cursor } from '../data/keyset'
import { DomainError, StoreBusyError } from '../errors.server'
import { HONEYPOT_FIELD } from '../rules/form-fields'
import { BodyTooLargeError, readBodyWithin } from './body-limit.server'

export { BodyTooLargeError, readBodyWithin }

/** Forms here are a few short fields; anything bigger is refused before it is read. */
export const MAX_FORM_BYTES = 16 * 1024

export type FieldErrors = Record<string, string>

export type FormFailure = { ok: false; fieldErrors: FieldErrors; formError?: string }

export type FormResult<T> = { ok: true; data: T } | FormFailure

/** A failed submission in the one shape every form renders. */
export function formFailure(fieldErrors: FieldErrors, formError?: string): FormFailure {
	return { ok: false, fieldErrors, formError }
}

const FORM_TYPE = 'application/x-www-form-urlencoded'

/**
 * Which of a page's forms was sent: the name its action gives (`action="?form=refund"`), so the
 * answer's errors show beside that form and in none of the page's others [R130]. Only a short
 * token is taken; the page compares it with its own forms' names, and a request naming none
 * (an API client) is answered as before.
 */
export function sentForm(request: Request): string | null {
	const name = new URL(request.url).searchParams.get('form')
	return name && /^[a-z0-9:_-]{1,80}$/.test(name) ? name : null
}

/** A form's fields as one strict schema: an unknown field is an error. */
export type FormSchema<Shape extends z.ZodRawShape> = z.ZodObject<Shape, z.core.$strict>

/**
 * Built once, at module scope beside the action that reads it (no per-request
 * work that could be done once). zod 4 compiles an object schema on its first parse, so
 * building it per request cost about 65 µs of event loop each time (measured), more in a busy server.
 */
export function formSchema<Shape extends z.ZodRawShape>(shape: Shape): FormSchema<Shape> {
	return z.strictObject(shape)
}

/**
 * Reads a small url-encoded form (what `<Form method="post">` sends, with or
 * without JavaScript) and validates it with a strict schema: an unknown field
 * (a `storeId`, a `userId`, a `role`) is an error, not something to ignore
 * quietly. Throws 413/415 Responses for bodies that are not such forms.
 */
export async function parseForm<Shape extends z.ZodRawShape>(
	request: Request,
	form: FormSchema<Shape>,
	/** A form of long texts (policy pages) may allow more than MAX_FORM_BYTES; every other keeps it. */
	{ maxBytes = MAX_FORM_BYTES }: { maxBytes?: number } = {},
): Promise<FormResult<z.infer<FormSchema<Shape>>>> {
	const length = Number(request.headers.get('content-length') ?? 0)
	if (length > maxBytes) throw data({ message: 'Form too large' }, { status: 413 })
	const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
	if (type !== FORM_TYPE) {
		throw data({ message: `Expected ${FORM_TYPE}` }, { status: 415 })
	}
	const body = Buffer.from(await readLimitedBody(request, maxBytes)).toString('utf8')
	return validateFields(new URLSearchParams(body), form)
}

/**
 * The fields of a form however they arrived (url-encoded, or the text parts of a multipart
 * form), checked the same way: each field once, the honeypot empty, the strict schema.
 */
export function validateFields<Shape extends z.ZodRawShape>(
	entries: Iterable<[string, string]>,
	form: FormSchema<Shape>,
): FormResult<z.infer<FormSchema<Shape>>> {
	// No prototype: `constructor` or `__proto__` are field names like any other here.
	const values: Record<string, string> = Object.create(null)
	for (const [key, value] of entries) {
		if (Object.hasOwn(values, key)) return formFailure({ [key]: 'Sent more than once' })
		values[key] = value
	}
	if (values[HONEYPOT_FIELD]) {
		return formFailure({}, 'This form could not be accepted.')
	}
	delete values[HONEYPOT_FIELD]

	const parsed = form.safeParse(values)
	if (parsed.success) return { ok: true, data: parsed.data }
	const fieldErrors: FieldErrors = {}
	let formError: string | undefined
	for (const issue of parsed.error.issues) {
		if (issue.code === 'unrecognized_keys') {
			formError = `Unexpected field: ${issue.keys.join(', ')}`
			continue
		}
		const key = String(issue.path[0] ?? '')
		fieldErrors[key] ??= issue.message
	}
	return formFailure(fieldErrors, formError)
}

/** The form body within MAX_FORM_BYTES, or a thrown 413 Response. */
async function readLimitedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
	try {
		return await readBodyWithin(request, maxBytes)
	} catch (error) {
		if (error instanceof BodyTooLargeError) throw data({ message: 'Form too large' }, { status: 413 })
		throw error
	}
}

/** Shared field rules, so every form says the same thing about the same field. */
export const fields = {
	email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address').max(254)),
	password: z.string().min(8, 'Use at least 8 characters').max(128, 'Use at most 128 characters'),
	// Sign-in checks whatever password exists; length rules belong to choosing one.
	currentPassword: z.string().min(1, 'Enter your password').max(128, 'Use at most 128 characters'),
	name: z.string().trim().min(1, 'Enter a name').max(80, 'Use at most 80 characters'),
	redirectTo: z.string().max(2048).optional(),
}

/**
 * A whole number field within [min, max]: digits only, so "-1", "1.5", "1e3", "0x10" and
 * "99999999999" are refused with a field error rather than coerced.
 */
export function wholeNumber(label: string, min: number, max: number) {
	return z
		.string()
		.regex(/^\d{1,9}$/, `${label} must be a whole number`)
		.transform(Number)
		.pipe(z.number().min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`))
}

/** An id as the store issues them (cuid or UUID); anything else never reaches a query. */
export const recordId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown id')

/** The `?page=` of a list: a whole number from 1 to 100,000, anything else is page 1. */
export function pageParam(request: Request) {
	const raw = new URL(request.url).searchParams.get('page') ?? '1'
	const page = /^\d{1,6}$/.test(raw) ? Number(raw) : 1
	return page >= 1 && page <= 100_000 ? page : 1
}

/**
 * Where a keyset list's page starts (app/data/keyset.ts): `?before=` or `?after=` a key of the
 * list's `shape`. Neither, both, or a key of another shape opens the newest page, never an error.
 */
export function cursorParam(request: Request, shape: RegExp): Cursor {
	const params = new URL(request.url).searchParams
	const [before, after] = [params.get('before'), params.get('after')]
	if (before !== null && after === null && shape.test(before)) return { before }
	if (after !== null && before === null && shape.test(after)) return { after }
	return null
}

/**
 * An admin list's query string: the page, a search text cut to `maxQuery`, and a status
 * filter kept only when it is one of `statuses` (anything else lists every status).
 */
export function listQuery<S extends string>(request: Request, { statuses, maxQuery }: { statuses: readonly S[]; maxQuery: number }) {
	const params = new URL(request.url).searchParams
	const status = params.get('status') ?? ''
	return {
		page: pageParam(request),
		query: (params.get('q') ?? '').trim().slice(0, maxQuery),
		status: (statuses as readonly string[]).includes(status) ? (status as S) : undefined,
	}
}

/**
 * A DomainError as the form failure every page renders, with its status; a write that gave up
 * under contention as a 503 with Retry-After (nothing was changed); others rethrow. `extra` rides
 * along (a form's echoed values).
 */
export function domainFailure<Extra extends object = Record<never, never>>(error: unknown, extra: Extra = {} as Extra) {
	if (error instanceof StoreBusyError) {
		return data({ ...formFailure({}, error.message), ...extra }, { status: 503, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
	}
	if (!(error instanceof DomainError)) throw error
	const failure = error.field ? formFailure({ [error.field]: error.message }, error.message) : formFailure({}, error.message)
	return data({ ...failure, ...extra }, { status: error.status })
}
