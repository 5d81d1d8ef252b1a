import { data, Form, useNavigation } from 'react-router'
import type { Route } from './+types/newsletter'
import { rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { Field, FormError, Honeypot } from '../../ui/forms'

export const meta = () => [{ title: 'Newsletter' }]

const subscribeForm = formSchema({ email: fields.email })

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	return { available: repositoriesFor(viewer).newsletter.available() }
}

/**
 * Subscribe [R50] (Sensitive), double opt-in: the address's owner gets a link to confirm and is
 * on the list only once they follow it. The answer is the same whether or not the address was
 * known, and it never carries an unsubscribe link: whoever typed an address controls nothing of it.
 */
export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const viewer = await getViewer(args)
	const newsletter = repositoriesFor(viewer).newsletter
	if (!newsletter.available()) return data(formFailure({}, UNAVAILABLE), { status: 503 })
	const form = await parseForm(args.request, subscribeForm)
	if (!form.ok) return data(form, { status: 400 })
	await newsletter.subscribe(form.data.email)
	return { ok: true as const }
}

const UNAVAILABLE = 'This store sends no email yet, so it cannot confirm a subscription: the newsletter is closed.'

export default function Newsletter({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	if (actionData?.ok) {
		return (
			<section className="card">
				<h1>Check your inbox</h1>
				<p data-testid="newsletter-done">
					If that address can receive mail, a link to confirm the subscription is on its way. Nothing else is sent to it until its owner follows that link.
				</p>
			</section>
		)
	}
	const errors = actionData && !actionData.ok ? actionData : undefined
	if (!loaderData.available) {
		return (
			<section className="card">
				<h1>Newsletter</h1>
				<p data-testid="newsletter-unavailable">{UNAVAILABLE}</p>
			</section>
		)
	}
	return (
		<section className="card">
			<h1>Newsletter</h1>
			<p>New products and the odd offer, a few times a year. We send a link to confirm first.</p>
			<Form method="post" noValidate>
				<FormError message={errors?.formError} />
				<Field name="email" label="Email" type="email" autoComplete="email" required error={errors?.fieldErrors.email} />
				<Honeypot />
				<button type="submit" disabled={pending}>
					{pending ? 'Subscribing…' : 'Subscribe'}
				</button>
			</Form>
		</section>
	)
}
