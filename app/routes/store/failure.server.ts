import { data } from 'react-router'
import { DomainError } from '../../errors.server'
import { formFailure } from '../../security/form.server'

/** A DomainError as the form failure every page renders, with its status; others rethrow. */
export function domainFailure(error: unknown) {
	if (!(error instanceof DomainError)) throw error
	const failure = error.field ? formFailure({ [error.field]: error.message }, error.message) : formFailure({}, error.message)
	return data(failure, { status: error.status })
}
