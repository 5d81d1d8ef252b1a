import { z } from 'zod'

/**
 * [R113] What a buyer who pays offline is told, set per Connection in Store Admin: plain text
 * in bounded fields (never HTML: pages and mails show it as text), the reference a shop's bank
 * statement will show with the order number filled in. Shared by the server (validation,
 * mails) and the pages (display), so it imports nothing of the server.
 */
export const ORDER_NUMBER_PLACEHOLDER = '{number}'

/** Letters, digits, punctuation and spaces: no control characters, no line breaks. */
const line = (label: string, max: number) =>
	z
		.string()
		.trim()
		.max(max, `${label}: use at most ${max} characters`)
		.regex(/^[^\u0000-\u001f\u007f<>]*$/u, `${label}: plain text only, on one line, without < or >`)

/** ISO 13616: two letters, two check digits, up to 30 letters or digits; mod 97 of the rearranged number is 1. */
export function isValidIban(value: string) {
	const iban = value.replace(/\s+/g, '').toUpperCase()
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false
	const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))
	let remainder = 0
	for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
	return remainder === 1
}

export const paymentInstructionsSchema = z.strictObject({
	bankName: line('Bank', 80),
	accountHolder: line('Account holder', 80),
	accountNumber: line('IBAN or account number', 64)
		.regex(/^[A-Za-z0-9 ./-]*$/, 'IBAN or account number: letters, digits, spaces, dots, dashes and slashes only')
		.refine((value) => !/^[A-Za-z]{2}\d{2}/.test(value.replace(/\s+/g, '')) || isValidIban(value), 'That IBAN is not valid: check its digits'),
	reference: line('Reference', 60).refine(
		(value) => value === '' || value.includes(ORDER_NUMBER_PLACEHOLDER),
		`Reference: include ${ORDER_NUMBER_PLACEHOLDER} where the order number goes`,
	),
	note: line('Note', 300),
})

export type PaymentInstructions = z.infer<typeof paymentInstructionsSchema>

/** The stored JSON, or null when absent or not what the schema allows (never shown half-read). */
export function readInstructions(stored: string | null | undefined): PaymentInstructions | null {
	if (!stored) return null
	try {
		const parsed = paymentInstructionsSchema.safeParse(JSON.parse(stored))
		return parsed.success ? parsed.data : null
	} catch {
		return null
	}
}

/**
 * The lines a buyer reads for Order `number`. Without instructions (none set yet) the buyer is
 * told the shop will send them, quoting the order number: never an account invented here.
 */
export function instructionLines(instructions: PaymentInstructions | null, number: number): string[] {
	const reference = (instructions?.reference || `Order ${ORDER_NUMBER_PLACEHOLDER}`).replaceAll(ORDER_NUMBER_PLACEHOLDER, String(number))
	if (!instructions || (!instructions.accountNumber && !instructions.bankName)) {
		return [`The shop will send you its payment details; quote “${reference}” when you pay.`, ...(instructions?.note ? [instructions.note] : [])]
	}
	return [
		'Pay by bank transfer to:',
		...(instructions.accountHolder ? [`Account holder: ${instructions.accountHolder}`] : []),
		...(instructions.bankName ? [`Bank: ${instructions.bankName}`] : []),
		...(instructions.accountNumber ? [`IBAN / account number: ${instructions.accountNumber}`] : []),
		`Reference: ${reference}`,
		...(instructions.note ? [instructions.note] : []),
	]
}

/** What an Order page shows of its Connection: the name, and for offline payment the instructions. */
export function connectionForBuyer(connection: { provider: string; displayName: string; paymentInstructions: string | null }, number: number) {
	return {
		provider: connection.provider,
		displayName: connection.displayName,
		instructions: connection.provider === 'stripe' ? [] : instructionLines(readInstructions(connection.paymentInstructions), number),
	}
}
