import { createContext, data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/newsletter-unsubscribe'
import { rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { readUnsubscribeToken } from '../../newsletter/newsletter.server'
import { formSchema, parseForm } from '../../security/form.server'
import { FormError } from '../../ui/forms'

export const meta = () => [{ title: 'Unsubscribe' }]

const refused = () => data({ message: 'This unsubscribe link is not valid or has expired. Use the link in a recent newsletter.' }, { status: 400 })

/**
 * What this request's POST did, for the loader React Router runs after it: that loader sees the
 * link's query, not the body, and a POST with the token only in its body (a client of its own)
 * must be answered as what it did, not as a link without a token [R122].
 */
const unsubscribed = createContext<{ email: string } | null>(null)

/** GET shows a button (link scanners must not unsubscribe anyone); POST unsubscribes. No sign-in needed. */
export async function loader(args: Route.LoaderArgs) {
	const done = args.context.get(unsubscribed)
	if (done) return { token: '', email: done.email }
	const viewer = await getViewer(args)
	const token = new URL(args.request.url).searchParams.get('token') ?? ''
	const verdict = readUnsubscribeToken(token, viewer.storeId)
	if (!verdict.ok) throw refused()
	return { token, email: verdict.email }
}

// The form sends `token`; a mail client's one-click POST (RFC 8058) sends `List-Unsubscribe=One-Click`
// to the link itself, whose query holds the token.
const unsubscribeForm = formSchema({ token: z.string().max(1024).optional(), 'List-Unsubscribe': z.literal('One-Click').optional() })

export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const viewer = await getViewer(args)
	const form = await parseForm(args.request, unsubscribeForm)
	if (!form.ok) return data(form, { status: 400 })
	const token = form.data.token ?? new URL(args.request.url).searchParams.get('token') ?? ''
	const verdict = readUnsubscribeToken(token, viewer.storeId)
	if (!verdict.ok) throw refused()
	await repositoriesFor(viewer).newsletter.unsubscribe(verdict.email)
	args.context.set(unsubscribed, { email: verdict.email })
	return { done: true as const, email: verdict.email }
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	if (actionData && 'done' in actionData) {
		return (
			<section className="card">
				<h1>Unsubscribed</h1>
				<p data-testid="unsubscribed">{actionData.email} will get no more newsletters from us.</p>
			</section>
		)
	}
	return (
		<section className="card">
			<h1>Unsubscribe</h1>
			<p>Stop sending newsletters to {loaderData.email}?</p>
			<Form method="post">
				<FormError message={actionData && 'formError' in actionData ? actionData.formError : undefined} />
				<input type="hidden" name="token" value={loaderData.token} />
				<button type="submit" disabled={pending}>
					Unsubscribe
				</button>
			</Form>
		</section>
	)
}
