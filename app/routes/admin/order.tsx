import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/order'
import { requireAdmin } from '../../auth/guards.server'
import { adminRepositoriesFor } from '../../repositories.server'
import { DomainError } from '../../errors.server'
import { NOTE_MAX } from '../../orders/notes'
import { canTransition } from '../../rules/order-status'
import { domainFailure, formFailure, formSchema, parseForm, sentForm } from '../../security/form.server'
import { refusalHeaders } from '../../security/rate-limit/rate-limit.server'
import { redirectWithFlash } from '../../security/flash.server'
import { FieldError, FormAnswer, FormError, answerTo, unclaimedError } from '../../ui/forms'
import { EventResult } from '../../ui/event-result'
import { OrderDetails } from '../../ui/order-details'
import { Price } from '../../ui/money-format'
import { Email } from '../../ui/email'

/** A change that gave up under contention carries its Retry-After to the page. */
export const headers = refusalHeaders

export const meta = ({ data: order }: Route.MetaArgs) => [{ title: `Order #${order?.number ?? ''} · Store Admin` }]

function orderNumber(params: { number: string }) {
	if (!/^\d{1,9}$/.test(params.number)) throw data({ message: 'That order was not found.' }, { status: 404 })
	return Number(params.number)
}

export async function loader(args: Route.LoaderArgs) {
	const admin = await requireAdmin(args)
	try {
		const order = await adminRepositoriesFor(admin).adminOrders.byNumber(orderNumber(args.params))
		return {
			...order,
			createdAt: order.createdAt.toISOString(),
			paidAt: order.paidAt?.toISOString() ?? null,
			shippedAt: order.shippedAt?.toISOString() ?? null,
			events: order.events.map((event) => ({ ...event, receivedAt: event.receivedAt.toISOString() })),
			timeline: order.timeline.map((entry) => ({ ...entry, at: entry.at.toISOString() })),
		}
	} catch (error) {
		if (error instanceof DomainError) throw data({ message: error.message }, { status: error.status })
		throw error
	}
}

const DONE = {
	mark_paid: 'Order marked paid.',
	fulfil: 'Order marked shipped.',
	cancel: 'Order cancelled; its stock is back.',
	refund: 'Refund recorded.',
	note: 'Note added.',
} as const

/** One line of text a person typed: trimmed, bounded, no control characters. */
const oneLine = (label: string, max: number, pattern = /^[^\u0000-\u001f\u007f]*$/) =>
	z.string().trim().max(max, `${label} is at most ${max} characters`).regex(pattern, `${label} holds characters it cannot have`).optional()

const orderActionForm = formSchema({
	intent: z.enum(['mark_paid', 'fulfil', 'cancel', 'refund', 'note'], 'Unknown action'),
	carrier: oneLine('Carrier', 60),
	trackingNumber: oneLine('Tracking number', 100, /^[A-Za-z0-9 ./-]*$/),
	note: z
		.string()
		.trim()
		.max(NOTE_MAX, `A note is at most ${NOTE_MAX} characters`)
		.regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'A note holds characters that are not text')
		.optional(),
	amount: z
		.string()
		.trim()
		.regex(/^\d{1,7}(\.\d{1,2})?$/, 'Enter an amount like 12.50')
		.optional(),
	confirm: z.literal('yes').optional(),
	/** What the refund form saw as refunded already (minor units): a replay of it records nothing. */
	refundedBefore: z
		.string()
		.regex(/^\d{1,12}$/, 'Reload the order and try again')
		.transform(Number)
		.optional(),
})

/** The page's forms, each named in its action (`?form=`) so a refusal shows beside it. */
const ORDER_FORMS = ['mark-paid', 'ship', 'cancel', 'refund', 'note'] as const
type OrderForm = (typeof ORDER_FORMS)[number]

/** Transitions only (mark paid, ship, cancel, refund); cancel and refund need the confirmation box. */
export async function action(args: Route.ActionArgs) {
	const admin = await requireAdmin(args)
	const number = orderNumber(args.params)
	// Which of the page's forms this was: its errors show beside it [R130].
	const sent = { form: sentForm(args.request) }
	const form = await parseForm(args.request, orderActionForm)
	if (!form.ok) return data({ ...form, ...sent }, { status: 400 })
	const { intent, amount, confirm, refundedBefore, carrier, trackingNumber, note } = form.data
	if (intent === 'note') {
		if (!note) return data({ ...formFailure({ note: 'Write the note first.' }, 'Write the note first.'), ...sent }, { status: 400 })
		try {
			await adminRepositoriesFor(admin).adminOrders.note(number, note)
		} catch (error) {
			return domainFailure(error, sent)
		}
		throw await redirectWithFlash(`/admin/orders/${number}#timeline`, DONE.note)
	}
	if ((intent === 'cancel' || intent === 'refund') && !confirm) {
		return data(
			{ ...formFailure({ confirm: 'Tick the box to confirm.' }, `Tick the box to confirm the ${intent === 'cancel' ? 'cancellation' : 'refund'}.`), ...sent },
			{ status: 400 },
		)
	}
	if (intent === 'refund' && refundedBefore === undefined) return data({ ...formFailure({}, 'Reload the order and try again.'), ...sent }, { status: 400 })
	if (intent === 'refund' && !amount)
		return data({ ...formFailure({ amount: 'Enter the amount to refund.' }, 'Enter the amount to refund.'), ...sent }, { status: 400 })
	const refundMinor = amount ? Math.round(Number(amount) * 100) : undefined
	let done: string = DONE[intent]
	try {
		const acted = await adminRepositoriesFor(admin).adminOrders.act(number, intent, { refundMinor, refundedBefore, shipment: { carrier, trackingNumber } })
		if (acted.refundedThroughProvider) done = 'Refunded through Stripe and recorded.'
	} catch (error) {
		return domainFailure(error, sent)
	}
	throw await redirectWithFlash(`/admin/orders/${number}`, done)
}

export default function AdminOrder({ loaderData: order, actionData }: Route.ComponentProps) {
	const can = (to: string) => canTransition(order.status, to)
	// Refunds never add up to more than was captured [R66].
	const left = order.capturedMinor - order.refundedMinor
	const answer = (form: OrderForm) => answerTo(actionData, form)
	// A refused field is marked and described by its error (FieldError's id: form-field-error).
	const invalid = (form: OrderForm, field: string) =>
		answer(form)?.fieldErrors?.[field] ? { 'aria-invalid': true, 'aria-describedby': `${form}-${field}-error` } : {}
	return (
		<section>
			<p className="breadcrumbs">
				<Link to="/admin/orders">Orders</Link>
			</p>
			<h1>Order #{order.number}</h1>
			<p>
				<Link to={`/admin/orders/${order.number}/packing-slip`}>Packing slip</Link>
			</p>
			{/* A refusal that names none of the page's forms (an API client's) shows here. */}
			<FormError message={unclaimedError(actionData, ORDER_FORMS)} />
			<p>
				Customer: <Email address={order.email} /> {order.userId ? '(account)' : '(guest)'} · Payment: {order.connection.displayName}
				{order.providerRef ? (
					<>
						{' '}
						· reference <code>{order.providerRef}</code>
					</>
				) : null}
				{order.paymentIntentRef ? (
					<>
						{' '}
						· payment <code>{order.paymentIntentRef}</code>
					</>
				) : null}
				{order.paidAt ? (
					<>
						{' '}
						· captured <Price minor={order.capturedMinor} currency={order.currency} />
					</>
				) : null}
				{order.disputed ? (
					<>
						{' '}
						· <strong>disputed</strong>
					</>
				) : null}
				{order.refundedMinor > 0 ? (
					<>
						{' '}
						· refunded <Price minor={order.refundedMinor} currency={order.currency} />
					</>
				) : null}
			</p>
			<OrderDetails order={order} showSku />
			<Timeline entries={order.timeline} answer={answer('note')} />
			<ProviderEvents events={order.events} />
			<div className="card wide danger-zone">
				<h2>Actions</h2>
				{can('paid') && order.connection.provider !== 'stripe' ? (
					<Form method="post" action="?form=mark-paid">
						<FormAnswer answer={answer('mark-paid')} />
						<button type="submit" name="intent" value="mark_paid">
							Mark paid
						</button>
					</Form>
				) : null}
				{can('fulfilled') ? (
					<Form method="post" action="?form=ship" className="ship-form" data-testid="ship-form">
						<FormAnswer answer={answer('ship')} />
						<label>
							Carrier (optional) <input name="carrier" maxLength={60} size={14} autoComplete="off" {...invalid('ship', 'carrier')} />
						</label>
						<label>
							Tracking number (optional) <input name="trackingNumber" maxLength={100} size={20} autoComplete="off" {...invalid('ship', 'trackingNumber')} />
						</label>
						<FieldError id="ship-carrier-error" message={answer('ship')?.fieldErrors?.carrier} />
						<FieldError id="ship-trackingNumber-error" message={answer('ship')?.fieldErrors?.trackingNumber} />
						<button type="submit" name="intent" value="fulfil">
							Mark shipped
						</button>
					</Form>
				) : null}
				{can('cancelled') ? (
					<Form method="post" action="?form=cancel" className="confirm-form" data-testid="cancel-form">
						<FormAnswer answer={answer('cancel')} />
						<label>
							<input type="checkbox" name="confirm" value="yes" /> Yes, cancel this order (stock is returned)
						</label>
						<button type="submit" name="intent" value="cancel" className="danger">
							Cancel order
						</button>
					</Form>
				) : null}
				{can('refunded') && left > 0 ? (
					// Keyed by what is refunded so far: after each refund the form is new (amount and
					// confirmation reset), with or without JavaScript.
					<Form method="post" action="?form=refund" className="confirm-form" key={`refund-${order.refundedMinor}`} data-testid="refund-form">
						<FormAnswer answer={answer('refund')} />
						<input type="hidden" name="refundedBefore" value={order.refundedMinor} />
						<label>
							Amount (up to <Price minor={left} currency={order.currency} />){' '}
							<input name="amount" inputMode="decimal" placeholder={(left / 100).toFixed(2)} size={8} {...invalid('refund', 'amount')} />
						</label>
						<FieldError id="refund-amount-error" message={answer('refund')?.fieldErrors?.amount} />
						{order.connection.provider === 'stripe' ? (
							<>
								<p className="hint">Stripe sends this amount back to the buyer’s card; the order records it once Stripe has.</p>
								<label>
									<input type="checkbox" name="confirm" value="yes" /> Yes, refund this amount to the card
								</label>
								<button type="submit" name="intent" value="refund" className="danger">
									Refund through Stripe
								</button>
							</>
						) : (
							<>
								<p className="hint">Send the money back yourself (your bank); this records that you did and tells the buyer.</p>
								<label>
									<input type="checkbox" name="confirm" value="yes" /> Yes, record this refund
								</label>
								<button type="submit" name="intent" value="refund" className="danger">
									Record refund
								</button>
							</>
						)}
					</Form>
				) : null}
				{!can('paid') && !can('fulfilled') && !can('cancelled') && !can('refunded') ? <p className="hint">This order is closed.</p> : null}
			</div>
		</section>
	)
}

/** Every change of the Order, oldest first, and the form for an internal note. */
function Timeline({
	entries,
	answer,
}: {
	entries: Array<{ at: string; what: string; by: string | null; note?: string }>
	answer?: { formError?: string; fieldErrors?: Partial<Record<string, string>> }
}) {
	const noteError = answer?.fieldErrors?.note
	return (
		<div className="card wide" id="timeline">
			<h2>Timeline</h2>
			<ol className="timeline" data-testid="order-timeline">
				{entries.map((entry, index) => (
					<li key={index}>
						<span className="hint">{entry.at.replace('T', ' ').slice(0, 16)} UTC</span> {entry.what}
						{entry.by ? <span className="hint"> · {entry.by}</span> : null}
						{entry.note !== undefined ? <p className="timeline-note">{entry.note}</p> : null}
					</li>
				))}
			</ol>
			<Form method="post" action="?form=note" className="note-form">
				<FormAnswer answer={answer} />
				<label>
					Internal note (only Store Admin sees it)
					<textarea
						name="note"
						rows={3}
						maxLength={NOTE_MAX}
						required
						aria-invalid={noteError ? true : undefined}
						aria-describedby={noteError ? 'note-note-error' : undefined}
					/>
				</label>
				<FieldError id="note-note-error" message={noteError} />
				<button type="submit" name="intent" value="note">
					Add note
				</button>
			</Form>
		</div>
	)
}

/** What provider events said about this Order, including those held for review or in conflict. */
function ProviderEvents({
	events,
}: {
	events: Array<{ id: string; providerEventId: string; type: string; outcome: string; summary: string; receivedAt: string; connection: { handle: string } }>
}) {
	if (events.length === 0) return null
	return (
		<div className="card wide">
			<h2>Provider events</h2>
			<table className="data-table" data-testid="order-events">
				<thead>
					<tr>
						<th>Received (UTC)</th>
						<th>Type</th>
						<th>Result</th>
					</tr>
				</thead>
				<tbody>
					{events.map((event) => (
						<tr key={event.id} data-outcome={event.outcome}>
							<td data-label="Received (UTC)">{event.receivedAt.replace('T', ' ').slice(0, 19)}</td>
							<td data-label="Type">
								{event.type} <code>{event.providerEventId}</code> via {event.connection.handle}
							</td>
							<td data-label="Result">
								<EventResult outcome={event.outcome} summary={event.summary} />
							</td>
						</tr>
					))}
				</tbody>
			</table>
			<p className="hint">
				Held for review or in conflict: the order did not move. Check the payment at the provider, then refund it there or replay the event from{' '}
				<Link to="/admin/events">Events</Link>.
			</p>
		</div>
	)
}
