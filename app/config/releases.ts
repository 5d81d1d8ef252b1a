/**
 * The release history the guidance in docs/releases/ is generated from (`npm run release-notes`).
 * The last entry is the version in package.json; its page carries the registry's maturity table
 * as it stands. Earlier pages stay as they were published.
 */
export type Release = { version: string; date: string; changes: readonly string[] }

export const RELEASES: readonly Release[] = [
	{
		version: '0.1.0',
		date: '2026-11-24',
		changes: [
			'The first published release guidance: maturity is earned from proof tests that pass in the same run, and this page is generated from the capability registry.',
			'Storefront, carts (guest and Customer, merged at sign-in), checkout with offline payment or Stripe Checkout, Orders and a newsletter.',
			'Store Admin for the admin role only: orders, products, uploads, payment Connections, the provider-event inbox, the Store profile, the two-factor requirement and an activity log.',
			'Provider events pay an Order only when the recorded reference, the amount and the currency reconcile; anything else is held for review or marked a conflict.',
			'Checkout never answers 500 under contention on either engine: bounded retries, then 503 with Retry-After and the cart intact.',
			'Sign-in limits per client and per account, so nobody can lock the operator out from another address; rate limits in memory or shared through Redis.',
			'`npm run diagnose`: the pre-exposure checklist with live boundary checks and proof scenarios on a throwaway database; the same checklist, read-only, on the Store Admin overview.',
			'Structured logs (one JSON line per event in production, a request id on every line) with secrets redacted.',
			'Email over SMTP (EMAIL_SMTP_URL, EMAIL_FROM): order confirmations with the order link and notices when an Order is paid, sent, cancelled or refunded, written in the transaction of the change and sent by an outbox worker with retries; Store Admin › Email shows and resends them. The newsletter is double opt-in and never shows an unsubscribe link to whoever typed an address.',
			'Password recovery by email, off by default: PASSWORD_RECOVERY=on (with sending configured) adds “Forgot password?”, a single-use 30-minute link, and ends every session of the account on reset.',
			'First visits (no cookie) now cost no more than returning ones: the guestId cookie is signed synchronously and a new guest’s empty cart is not queried.',
			'Two-factor sign-in for every account (an authenticator app and ten backup codes, each code accepted once); Store Admin may require it of admins.',
			'Store Admin › Customers: the Store’s customer accounts, searchable by name or email, with their Orders and what they spent, read-only.',
			'Refunds from an Order’s page in Store Admin: through Stripe first for card Orders (a refusal records nothing), recorded for bank transfer and cash on delivery; the buyer sees them and gets a mail.',
			'Discount codes (percentage, fixed amount, free shipping) with a usage limit that holds under any concurrency, and newsletter campaigns sent through the outbox at the operator’s rate, each mail with its reader’s one-click unsubscribe.',
			'Store Admin: a full-width shell, CSV exports of Orders and products streamed in batches, packing slips, guest buyers; a checkout that keeps what was typed and offers only the rates that ship to the chosen country.',
		],
	},
]
