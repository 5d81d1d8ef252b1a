import { data } from 'react-router'
import { DomainError } from '../../errors.server'
import { StoreBusyError } from '../../orders/contention.server'
import { formFailure } from '../../security/form.server'

/**
 * A DomainError as the form failure every page renders, with its status; a write that gave up
 * under contention as a 503 with Retry-After (nothing was changed); others rethrow.
 */
export function domainFailure(error: unknown) {
	if (error instanceof StoreBusyError) {
		return data(formFailure({}, error.message), { status: 503, headers: { 'Retry-After': String(error.retryAfterSeconds) } })
	}
	if (!(error instanceof DomainError)) throw error
	const failure = error.field ? formFailure({ [error.field]: error.message }, error.message) : formFailure({}, error.message)
	return data(failure, { status: error.status })
}
