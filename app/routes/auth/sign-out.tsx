import { Form, redirect } from 'react-router'
import type { Route } from './+types/sign-out'
import { signOut } from '../../auth/credentials.server'

export const meta = () => [{ title: 'Sign out' }]

/** Signing out is a POST (a link or image cannot sign anyone out); GET shows the button. */
export async function action({ request }: Route.ActionArgs) {
	const result = await signOut(request)
	throw redirect('/', { headers: result.ok ? result.headers : undefined })
}

export default function SignOut() {
	return (
		<section className="card">
			<h1>Sign out</h1>
			<Form method="post">
				<button type="submit">Sign out</button>
			</Form>
		</section>
	)
}
