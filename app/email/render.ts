import { escapeHtml } from '../security/escape-html'

/** A rendered mail: what the worker hands to SMTP. `listUnsubscribe` adds the RFC 8058 headers. */
export type RenderedMail = { subject: string; text: string; html: string; listUnsubscribe?: string }

/**
 * The headers a rendered mail adds to SMTP's own: with `listUnsubscribe`, RFC 2369's
 * `List-Unsubscribe` and RFC 8058's `List-Unsubscribe-Post`, so a mail client offers its own
 * unsubscribe button, which POSTs `List-Unsubscribe=One-Click` to that link.
 */
export function mailHeaders(mail: RenderedMail): Record<string, string> | undefined {
	if (!mail.listUnsubscribe) return undefined
	return { 'List-Unsubscribe': `<${mail.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

/** No line breaks or control characters in a header value (a subject built from a Store name or a product title). */
export const headerSafe = (value: string) =>
	value
		.replace(/[\u0000-\u001f\u007f]+/g, ' ')
		.trim()
		.slice(0, 200)

/**
 * A plain mail from paragraphs and an optional link: the text part and an HTML part with every
 * value escaped. Templates hold no secret and no internal id.
 */
export function plainMail({
	subject,
	paragraphs,
	link,
	listUnsubscribe,
}: {
	subject: string
	paragraphs: string[]
	link?: { href: string; label: string }
	listUnsubscribe?: string
}): RenderedMail {
	const text = [...paragraphs, ...(link ? [`${link.label}: ${link.href}`] : []), ...(listUnsubscribe ? [`Unsubscribe: ${listUnsubscribe}`] : [])].join('\n\n')
	const html = [
		'<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
		...paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll('\n', '<br>')}</p>`),
		...(link ? [`<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`] : []),
		...(listUnsubscribe ? [`<p style="font-size: 0.85em"><a href="${escapeHtml(listUnsubscribe)}">Unsubscribe</a></p>`] : []),
		'</body></html>',
	].join('\n')
	return { subject: headerSafe(subject), text, html, ...(listUnsubscribe ? { listUnsubscribe } : {}) }
}
