import { defineModule } from '../define'

/**
 * The newsletter's list: one row per address and Store. An address is on the list only once its
 * owner confirmed it (double opt-in); `created_at` is when it was first typed in.
 */
export const newsletterModule = defineModule({
	id: 'newsletter',
	version: 1,
	fields: {
		/** As typed, lower-cased by the form (RFC 5321 allows 254 characters in a path). */
		email: { type: 'string', maxLength: 320 },
		confirmed_at: { type: 'timestamp', optional: true },
		unsubscribed_at: { type: 'timestamp', optional: true },
	},
	indexes: [{ fields: ['email'], unique: true }],
})
