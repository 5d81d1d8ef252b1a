import { describe, expect, it } from 'vitest'
import { instructionLines, isValidIban, paymentInstructionsSchema, readInstructions } from './payment-instructions'

const valid = {
	bankName: 'Example Bank',
	accountHolder: 'Shop Ltd',
	accountNumber: 'GB82 WEST 1234 5698 7654 32',
	reference: 'SHOP-{number}',
	note: 'Thank you!',
}

describe('payment instructions', () => {
	it('checks an IBAN by its check digits and leaves other account numbers free [R113]', () => {
		expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true)
		expect(isValidIban('GB82WEST12345698765432')).toBe(true)
		expect(isValidIban('GB82 WEST 1234 5698 7654 33')).toBe(false)
		expect(paymentInstructionsSchema.safeParse({ ...valid, accountNumber: 'GB83 WEST 1234 5698 7654 32' }).success).toBe(false)
		expect(paymentInstructionsSchema.safeParse({ ...valid, accountNumber: '021000021 / 123456789' }).success).toBe(true)
	})

	it('takes plain text on one line only, within its lengths, with the order number in the reference [R113]', () => {
		for (const bad of [
			{ note: '<b>bold</b>' },
			{ note: 'two\nlines' },
			{ bankName: 'x'.repeat(81) },
			{ reference: 'SHOP' },
			{ accountNumber: 'DROP TABLE;' },
			{ extra: 'field' },
		]) {
			expect(paymentInstructionsSchema.safeParse({ ...valid, ...bad }).success, JSON.stringify(bad)).toBe(false)
		}
		expect(readInstructions('{"bankName":"<b>"}')).toBeNull()
		expect(readInstructions('not json')).toBeNull()
	})

	it('fills the order number into what the buyer reads, and never invents an account when none is set [R113]', () => {
		expect(instructionLines(valid, 1042)).toEqual([
			'Pay by bank transfer to:',
			'Account holder: Shop Ltd',
			'Bank: Example Bank',
			'IBAN / account number: GB82 WEST 1234 5698 7654 32',
			'Reference: SHOP-1042',
			'Thank you!',
		])
		expect(instructionLines(null, 1001)).toEqual(['The shop will send you its payment details; quote “Order 1001” when you pay.'])
	})
})
