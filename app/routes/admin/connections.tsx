import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/connections'
import { requireAdmin } from '../../auth/guards.server'
import { getConfig } from '../../config/env.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { CONNECTION_HANDLE } from '../../payments/connections.server'
import { domainFailure, formFailure, formSchema, parseForm, sentForm } from '../../security/form.server'
import { redirectWithFlash } from '../../security/flash.server'
import { Field, FieldError, FormAnswer, FormError, answerTo, unclaimedError } from '../../ui/forms'
import { paymentInstructionsSchema } from '../../rules/payment-instructions'

export const meta = () => [{ title: 'Connections · Store Admin' }]

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	return { connections: await adminRepositoriesFor(admin).connections.list(), appUrl: getConfig().appUrl }
}

const secret = z.string().trim().min(16, 'Paste the full secret (16 characters or more)').max(200, 'Use at most 200 characters')

const instructionsForm = paymentInstructionsSchema.extend({ handle: z.string().regex(CONNECTION_HANDLE, 'Unknown connection') })

const rotateForm = formSchema({ handle: z.string().regex(CONNECTION_HANDLE, 'Unknown connection'), webhookSecret: secret })

const connectionForm = formSchema({
	provider: z.enum(['stripe', 'generic'], 'Choose a provider'),
	handle: z.string().trim().toLowerCase().regex(CONNECTION_HANDLE, 'Use lower-case letters, digits and dashes (up to 40)'),
	displayName: z.string().trim().min(1, 'Enter a name shoppers see at checkout').max(60, 'Use at most 60 characters'),
	secretKey: z.union([
		z.literal(''),
		z
			.string()
			.trim()
			.regex(/^sk_(test|live)_[A-Za-z0-9_]{8,200}$/, 'A Stripe secret key starts with sk_test_ or sk_live_'),
	]),
	webhookSecret: secret,
})

/** Create a Connection, or rotate one's verification secret. Secrets are write-only. */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const url = new URL(args.request.url)
	const repo = adminRepositoriesFor(admin).connections
	// Which of the page's forms this was: its errors show beside it [R130].
	const sent = { form: sentForm(args.request) }
	try {
		if (url.searchParams.get('intent') === 'instructions') {
			const form = await parseForm(args.request, instructionsForm)
			if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
			const { handle, ...instructions } = form.data
			await repo.setInstructions(handle, instructions)
			throw await redirectWithFlash('/admin/connections', `Payment instructions saved for ${handle}.`)
		}
		if (url.searchParams.get('intent') === 'rotate') {
			const form = await parseForm(args.request, rotateForm)
			if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
			await repo.rotate(form.data.handle, form.data.webhookSecret)
			throw await redirectWithFlash('/admin/connections', `New verification secret saved for ${form.data.handle}; the previous one is accepted for 24 hours.`)
		}
		const form = await parseForm(args.request, connectionForm)
		if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
		if (form.data.handle === 'offline')
			return data({ ...formFailure({ handle: 'This handle is taken by the built-in offline payment.' }), ...sent }, { status: 409 })
		await repo.create({ ...form.data, secretKey: form.data.secretKey || undefined })
		throw await redirectWithFlash('/admin/connections', `Connection ${form.data.handle} created.`)
	} catch (error) {
		if (error instanceof Response) throw error
		return domainFailure(error, sent)
	}
}

export default function Connections({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useNavigation().state === 'submitting'
	const forms = ['add', ...loaderData.connections.flatMap((c) => [`rotate-${c.handle}`, `instructions-${c.handle}`])]
	const answer = (form: string) => answerTo(actionData, form)
	const errorsOf = (form: string): Record<string, string | undefined> => answer(form)?.fieldErrors ?? {}
	return (
		<section>
			<h1>Connections</h1>
			{/* A refusal that names none of the page's forms (an API client's) shows here. */}
			<FormError message={unclaimedError(actionData, forms)} />
			<table className="data-table">
				<thead>
					<tr>
						<th>Connection</th>
						<th>Provider</th>
						<th>Event endpoint (paste into the provider’s dashboard)</th>
						<th>Rotate verification secret</th>
					</tr>
				</thead>
				<tbody>
					{loaderData.connections.map((c) => (
						<tr key={c.handle}>
							<td data-label="Connection">
								{c.displayName}
								<br />
								<code>{c.handle}</code>
							</td>
							<td data-label="Provider">{c.provider}</td>
							<td data-label="Event endpoint">{c.provider === 'offline' ? '—' : <code>{`${loaderData.appUrl}/api/events/${c.handle}`}</code>}</td>
							<td data-label="Rotate verification secret">
								{c.provider === 'offline' ? null : (
									<Form method="post" action={`?intent=rotate&form=rotate-${c.handle}`} className="inline-form" data-testid={`rotate-${c.handle}`}>
										<FormAnswer answer={answer(`rotate-${c.handle}`)} />
										<input type="hidden" name="handle" value={c.handle} />
										<label className="visually-hidden" htmlFor={`rotate-${c.handle}`}>
											New secret for {c.handle}
										</label>
										<input
											id={`rotate-${c.handle}`}
											name="webhookSecret"
											type="password"
											autoComplete="off"
											placeholder="new secret"
											aria-invalid={errorsOf(`rotate-${c.handle}`).webhookSecret ? true : undefined}
											aria-describedby={errorsOf(`rotate-${c.handle}`).webhookSecret ? `rotate-${c.handle}-error` : undefined}
										/>
										<button type="submit" className="secondary" disabled={pending}>
											Rotate
										</button>
										<FieldError id={`rotate-${c.handle}-error`} message={errorsOf(`rotate-${c.handle}`).webhookSecret} />
									</Form>
								)}
							</td>
						</tr>
					))}
				</tbody>
			</table>
			{loaderData.connections
				.filter((c) => c.provider !== 'stripe')
				.map((c) => (
					<InstructionsForm
						key={c.handle}
						handle={c.handle}
						name={c.displayName}
						values={c.instructions}
						answer={answer(`instructions-${c.handle}`)}
						pending={pending}
					/>
				))}
			<h2>Add a connection</h2>
			<Form method="post" action="?form=add" noValidate className="card wide" data-testid="add-connection">
				<FormAnswer answer={answer('add')} />
				<div className="field">
					<label htmlFor="field-provider">Provider</label>
					<select id="field-provider" name="provider" defaultValue="generic">
						<option value="generic">Generic (signed events, e.g. bank transfer reconciliation)</option>
						<option value="stripe">Stripe</option>
					</select>
				</div>
				<Field name="handle" label="Handle (its endpoint is /api/events/handle)" required error={errorsOf('add').handle} />
				<Field name="displayName" label="Name shown at checkout" required error={errorsOf('add').displayName} />
				<Field name="secretKey" label="Stripe secret key (Stripe only)" type="password" autoComplete="off" error={errorsOf('add').secretKey} />
				<Field name="webhookSecret" label="Event verification secret" type="password" autoComplete="off" required error={errorsOf('add').webhookSecret} />
				<p className="hint">Secrets are stored encrypted and never shown again.</p>
				<button type="submit" disabled={pending}>
					Add connection
				</button>
			</Form>
		</section>
	)
}

type Instructions = { bankName: string; accountHolder: string; accountNumber: string; reference: string; note: string }

/** What buyers who pay through an offline Connection are told on their order page and in the mail. */
function InstructionsForm({
	handle,
	name,
	values,
	answer,
	pending,
}: {
	handle: string
	name: string
	values: Instructions | null
	answer?: { formError?: string; fieldErrors?: Partial<Record<string, string>> }
	pending: boolean
}) {
	const errors = answer?.fieldErrors ?? {}
	const id = (field: string) => `${handle}-${field}`
	const input = (field: keyof Instructions, label: string, max: number, hint?: string) => (
		<div className="field">
			<label htmlFor={id(field)}>{label}</label>
			<input
				id={id(field)}
				name={field}
				defaultValue={values?.[field] ?? ''}
				maxLength={max}
				aria-invalid={errors[field] ? true : undefined}
				aria-describedby={errors[field] ? `${id(field)}-error` : undefined}
			/>
			{hint ? <p className="hint">{hint}</p> : null}
			<FieldError id={`${id(field)}-error`} message={errors[field]} />
		</div>
	)
	return (
		<Form method="post" action={`?intent=instructions&form=instructions-${handle}`} noValidate className="card wide" data-testid={`instructions-${handle}`}>
			<h2>Payment instructions: {name}</h2>
			<FormAnswer answer={answer} />
			<p className="hint">Shown as plain text to buyers who chose {name}, on their order page and in the confirmation mail, until the order is paid.</p>
			<input type="hidden" name="handle" value={handle} />
			{input('accountHolder', 'Account holder', 80)}
			{input('bankName', 'Bank', 80)}
			{input('accountNumber', 'IBAN or account number', 64)}
			{input('reference', 'Reference', 60, 'Put {number} where the order number goes, e.g. SHOP-{number}. Empty: "Order {number}".')}
			{input('note', 'Note (optional)', 300)}
			<button type="submit" disabled={pending}>
				Save instructions
			</button>
		</Form>
	)
}
