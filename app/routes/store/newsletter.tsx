import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/newsletter'
import { rateLimitedForm } from '../../security/rate-limit/rate-limit.server'
import { getViewer } from '../../auth/guards.server'
import { repositoriesFor } from '../../data/repositories.server'
import { unsubscribeToken } from '../../newsletter/newsletter.server'
import { fields, formSchema, parseForm } from '../../security/form.server'
import { Field, FormError, Honeypot } from '../../ui/forms'

export const meta = () => [{ title: 'Newsletter' }]

const subscribeForm = formSchema({ email: fields.email })

/**
 * Subscribe (spec 8: Sensitive). The answer is the same whether or not the address was
 * already on the list, so the form tells nobody who subscribes here.
 */
export async function action(args: Route.ActionArgs) {
	const limited = rateLimitedForm(args.context)
	if (limited) return limited
	const viewer = await getViewer(args)
	const form = await parseForm(args.request, subscribeForm)
	if (!form.ok) return data(form, { status: 400 })
	await repositoriesFor(viewer).newsletter.subscribe(form.data.email)
	const token = unsubscribeToken({ storeId: viewer.storeId, email: form.data.email })
	return { ok: true as const, unsubscribeUrl: `/newsletter/unsubscribe?${new URLSearchParams({ token })}` }
}

export default function Newsletter({ actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	if (actionData?.ok) {
		return (
			<section className="card">
				<h1>Thank you</h1>
				<p data-testid="newsletter-done">You are on the list: we will write when there is news.</p>
				<p className="hint">
					Changed your mind? <Link to={actionData.unsubscribeUrl}>Unsubscribe</Link> at any time; every newsletter carries this link.
				</p>
			</section>
		)
	}
	const errors = actionData && !actionData.ok ? actionData : undefined
	return (
		<section className="card">
			<h1>Newsletter</h1>
			<p>New products and the odd offer, a few times a year.</p>
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
