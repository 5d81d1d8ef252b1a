import { statusLabel } from './order-details'

/** The colour family of each Order status and checklist result; the text always says it too. */
const TONE: Record<string, 'warn' | 'good' | 'info' | 'muted' | 'bad'> = {
	awaiting_payment: 'warn',
	paid: 'good',
	fulfilled: 'info',
	cancelled: 'muted',
	refunded: 'bad',
	pass: 'good',
	warn: 'warn',
	fail: 'bad',
}

/** A small label with colour and text (never colour alone), kept on one line. */
export function Badge({ tone, children }: { tone: 'warn' | 'good' | 'info' | 'muted' | 'bad'; children: React.ReactNode }) {
	return <span className={`badge badge-${tone}`}>{children}</span>
}

/** An Order's status as a badge: "Awaiting payment" in amber, "Paid" in green, and so on. */
export function StatusBadge({ status }: { status: string }) {
	return <Badge tone={TONE[status] ?? 'info'}>{statusLabel(status)}</Badge>
}

/** A checklist result as a badge: Pass, Warn, Fail or Info. */
export function CheckBadge({ status, label }: { status: string; label: string }) {
	return <Badge tone={TONE[status] ?? 'info'}>{label}</Badge>
}

/** A mail's place in the outbox as a badge: waiting in amber, sent in green, failed in red. */
export function MailBadge({ status }: { status: string }) {
	const tone = status === 'sent' ? 'good' : status === 'failed' ? 'bad' : status === 'pending' ? 'warn' : 'muted'
	return <Badge tone={tone}>{status}</Badge>
}
