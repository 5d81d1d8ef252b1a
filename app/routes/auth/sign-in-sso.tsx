import { data, redirect } from 'react-router'
import type { Route } from './+types/sign-in-sso'
import { startManagedSignIn } from '../../auth/sso-flow.server'
import { fields, formSchema, parseForm } from '../../security/form.server'

/** [R24] the "Sign in with <provider>" form posts here; there is no page. */
export function loader() {
	throw redirect('/sign-in')
}

const ssoForm = formSchema({ redirectTo: fields.redirectTo })

export async function action({ request }: Route.ActionArgs) {
	const form = await parseForm(request, ssoForm)
	if (!form.ok) return data(form, { status: 400 })
	const started = await startManagedSignIn({ request, redirectTo: form.data.redirectTo })
	if (started === null) throw data({ message: 'Not found' }, { status: 404 })
	if (!started.ok) throw redirect(`/sign-in?error=${encodeURIComponent('sso_unavailable')}`)
	throw redirect(started.url, { headers: started.headers })
}
