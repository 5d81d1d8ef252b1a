import { createContext, data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/newsletter-confirm'
import { rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { readUnsubscribeToken } from '../../newsletter/newsletter.server'
import { formSchema, parseForm } from '../../security/form.server'

export const meta = () => [{ title: 'Confirm your subscription' }]

const refused = () => data({ message: 'This confirmation link is not valid or has expired. Subscribe again to get a new one.' }, { status: 400 })

/** What this request's POST did, for the loader that runs after it (see newsletter-unsubscribe.tsx) [R122]. */
const confirmed = createContext<{ email: string } | null>(null)

/** GET shows a button (a mail scanner that opens links must not subscribe anyone); POST confirms. */
export async function loader(args: Route.LoaderArgs) {
	const done = args.context.get(confirmed)
	if (done) return { token: '', email: done.email }
	const viewer = await getViewer(args)
	const token = new URL(args.request.url).searchParams.get('token') ?? ''
	const verdict = readUnsubscribeToken(token, viewer.storeId, { purpose: 'confirm' })
	if (!verdict.ok) throw refused()
	return { token, email: verdict.email }
}

const confirmForm = formSchema({ token: z.string().max(1024) })

export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const viewer = await getViewer(args)
	const form = await parseForm(args.request, confirmForm)
	if (!form.ok) return data(form, { status: 400 })
	const verdict = readUnsubscribeToken(form.data.token, viewer.storeId, { purpose: 'confirm' })
	if (!verdict.ok) throw refused()
	const state = await repositoriesFor(viewer).newsletter.confirm(verdict.email)
	args.context.set(confirmed, { email: verdict.email })
	return { done: true as const, email: verdict.email, onList: state !== 'left' }
}

export default function ConfirmSubscription({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	if (actionData && 'done' in actionData) {
		return actionData.onList ? (
			<section className="card">
				<h1>Subscribed</h1>
				<p data-testid="newsletter-confirmed">{actionData.email} is on the list. Every newsletter carries a link to leave it.</p>
			</section>
		) : (
			<section className="card">
				<h1>Not subscribed</h1>
				<p data-testid="newsletter-not-confirmed">
					{actionData.email} left the list, so nothing is sent to it. To get the newsletter after all, subscribe again.
				</p>
			</section>
		)
	}
	return (
		<section className="card">
			<h1>Confirm your subscription</h1>
			<p>Send the newsletter to {loaderData.email}?</p>
			<Form method="post">
				<input type="hidden" name="token" value={loaderData.token} />
				<button type="submit" disabled={pending}>
					Confirm
				</button>
			</Form>
		</section>
	)
}
