import { data, Form, useNavigation } from 'react-router'
import type { Route } from './+types/newsletter'
import { rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../repositories.server'
import { fields, formFailure, formSchema, parseForm } from '../../security/form.server'
import { Field, FormError, Honeypot } from '../../ui/forms'

export const meta = () => [{ title: 'Newsletter' }]

const emailForm = formSchema({ email: fields.email })

export async function loader(args: Route.LoaderArgs) {
	const viewer = await getViewer(args)
	return { available: repositoriesFor(viewer).newsletter.available() }
}

/**
 * Subscribe [R50] (Sensitive), double opt-in: the address's owner gets a link to confirm and is
 * on the list only once they follow it. `?intent=leave` ("leave the list" [R122]) mails an address
 * on the list its unsubscribe link. Each answer is the same whether or not the address was known,
 * and never carries an unsubscribe link itself: whoever typed an address controls nothing of it.
 */
export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const viewer = await getViewer(args)
	const newsletter = repositoriesFor(viewer).newsletter
	if (!newsletter.available()) return data(formFailure({}, UNAVAILABLE), { status: 503 })
	const leaving = new URL(args.request.url).searchParams.get('intent') === 'leave'
	const form = await parseForm(args.request, emailForm)
	if (!form.ok) return data({ ...form, leaving }, { status: 400 })
	if (leaving) {
		await newsletter.requestLeave(form.data.email)
		return { ok: true as const, leaving }
	}
	await newsletter.subscribe(form.data.email)
	return { ok: true as const, leaving }
}

const UNAVAILABLE = 'This store sends no email yet, so it cannot confirm a subscription: the newsletter is closed.'

export default function Newsletter({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	if (actionData?.ok) {
		return (
			<section className="card">
				<h1>Check your inbox</h1>
				{actionData.leaving ? (
					<p data-testid="newsletter-leave-sent">
						If that address is on the list, a link to leave it is on its way. Following it stops every newsletter to that address.
					</p>
				) : (
					<p data-testid="newsletter-done">
						If that address can receive mail, a link to confirm the subscription is on its way. Nothing else is sent to it until its owner follows that link.
					</p>
				)}
			</section>
		)
	}
	const errors = actionData && !actionData.ok ? actionData : undefined
	const subscribeErrors = errors && !('leaving' in errors && errors.leaving) ? errors : undefined
	const leaveErrors = errors && 'leaving' in errors && errors.leaving ? errors : undefined
	if (!loaderData.available) {
		return (
			<section className="card">
				<h1>Newsletter</h1>
				<p data-testid="newsletter-unavailable">{UNAVAILABLE}</p>
			</section>
		)
	}
	return (
		<>
			<section className="card">
				<h1>Newsletter</h1>
				<p>New products and the odd offer, a few times a year. We send a link to confirm first.</p>
				<Form method="post" noValidate>
					<FormError message={subscribeErrors?.formError} />
					<Field name="email" label="Email" type="email" autoComplete="email" required error={subscribeErrors?.fieldErrors.email} />
					<Honeypot />
					<button type="submit" disabled={pending}>
						{pending ? 'Subscribing…' : 'Subscribe'}
					</button>
				</Form>
			</section>
			<section className="card">
				<h2>Leave the list</h2>
				<p>Every newsletter carries a link to leave. Without one at hand, we mail the address its link.</p>
				<Form method="post" action="?intent=leave" noValidate>
					<FormError message={leaveErrors?.formError} />
					<Field id="leave-email" name="email" label="Address on the list" type="email" autoComplete="email" required error={leaveErrors?.fieldErrors.email} />
					<Honeypot />
					<button type="submit" disabled={pending}>
						Send me a link to leave
					</button>
				</Form>
			</section>
		</>
	)
}
