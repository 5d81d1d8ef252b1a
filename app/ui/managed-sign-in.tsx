import { Form } from 'react-router'
import { FormError } from './forms'

/** "Sign in with <provider>" — a plain form post, so it works without JavaScript. */
export function ManagedSignIn({ sso, error, redirectTo }: { sso: { name: string } | null; error: string | null; redirectTo: string }) {
	if (!sso) return null
	return (
		<div className="managed-sign-in">
			<FormError message={error ?? undefined} />
			<Form method="post" action="/sign-in/sso" reloadDocument>
				<input type="hidden" name="redirectTo" value={redirectTo} />
				<button type="submit">Sign in with {sso.name}</button>
			</Form>
		</div>
	)
}
