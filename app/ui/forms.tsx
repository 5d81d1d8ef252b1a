import { HONEYPOT_FIELD } from '../rules/form-fields'

export function FieldError({ id, message }: { id: string; message?: string }) {
	if (!message) return null
	return (
		<p className="field-error" id={id} role="alert">
			{message}
		</p>
	)
}

type Answer = { form?: string | null; formError?: string; fieldErrors?: Partial<Record<string, string>> }

/**
 * The action's answer when the form named `name` (its action's `?form=`) was the one sent, else
 * nothing: a refused form's errors show beside it and in none of the page's other forms [R130].
 */
export function answerTo<A extends Answer>(answer: A | undefined, name: string): A | undefined {
	return answer?.form === name ? answer : undefined
}

/**
 * The message for the top of the page: a refusal none of the page's named `forms` claims (an
 * API client's, an unknown intent). A refusal one of them claims shows beside that form only.
 */
export function unclaimedError(answer: Answer | undefined, forms: readonly string[]): string | undefined {
	return answer?.form && forms.includes(answer.form) ? undefined : answer?.formError
}

/** A refused form's own message, beside it, unless one of its fields already says the same. */
export function FormAnswer({ answer }: { answer?: Answer }) {
	const message = answer?.formError
	if (!message || Object.values(answer.fieldErrors ?? {}).includes(message)) return null
	return <FormError message={message} />
}

export function FormError({ message }: { message?: string }) {
	if (!message) return null
	return (
		<p className="form-error" role="alert">
			{message}
		</p>
	)
}

/** Hidden from people (and from assistive tech); bots that fill every field get refused. */
export function Honeypot() {
	return (
		<div className="honeypot" aria-hidden="true">
			<label>
				Leave this empty
				<input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
			</label>
		</div>
	)
}

type InputProps = {
	name: string
	label: string
	error?: string
	ref?: React.Ref<HTMLInputElement>
} & React.InputHTMLAttributes<HTMLInputElement>

/** A labelled input; `id` when one page repeats a field (one form per row). */
export function Field({ name, label, error, id: givenId, ...input }: InputProps) {
	const id = givenId ?? `field-${name}`
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
			<FieldError id={`${id}-error`} message={error} />
		</div>
	)
}
