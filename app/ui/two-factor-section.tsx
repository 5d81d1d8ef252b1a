import { Form } from 'react-router'
import { Field, FormError } from './forms'

export type Enrolment = { secret: string; totpURI: string; qr: string; backupCodes: string[] }

type Props = {
	status: { enabled: boolean; pending: boolean }
	/** Shown once, right after the enrolment started; never stored for later display. */
	enrolment?: Enrolment
	errors?: { fieldErrors: Record<string, string>; formError?: string; intent?: string }
	pending: boolean
}

/** /account/security's two-factor section. Plain forms: works without JavaScript. */
export function TwoFactorSection({ status, enrolment, errors, pending }: Props) {
	const errorsFor = (intent: string) => (errors?.intent === intent ? errors : undefined)
	return (
		<section aria-labelledby="two-factor-heading" data-testid="two-factor">
			<h2 id="two-factor-heading">Two-factor sign-in</h2>
			{status.enabled ? (
				<>
					<p data-testid="two-factor-status">On: a password sign-in also asks for a code from your authenticator app.</p>
					<PasswordStep intent="disable-2fa" errors={errorsFor('disable-2fa')} pending={pending}>
						Turn off two-factor sign-in
					</PasswordStep>
				</>
			) : (
				<>
					<p data-testid="two-factor-status">
						{enrolment || status.pending
							? 'Not on yet: confirm with a code from your authenticator app.'
							: 'Off. Turn it on to protect password sign-in with a code from an authenticator app.'}
					</p>
					{enrolment ? <EnrolmentDetails enrolment={enrolment} /> : null}
					{enrolment || status.pending ? (
						<Form method="post" noValidate>
							<FormError message={errorsFor('confirm-2fa')?.formError} />
							<input type="hidden" name="intent" value="confirm-2fa" />
							<Field
								name="code"
								label="6-digit code from your app"
								inputMode="numeric"
								autoComplete="one-time-code"
								maxLength={6}
								required
								error={errorsFor('confirm-2fa')?.fieldErrors.code}
							/>
							<button type="submit" disabled={pending}>
								Confirm and turn on
							</button>
						</Form>
					) : null}
					{enrolment ? null : (
						<PasswordStep intent="enable-2fa" errors={errorsFor('enable-2fa')} pending={pending}>
							{status.pending ? 'Start again with a new secret' : 'Set up two-factor sign-in'}
						</PasswordStep>
					)}
				</>
			)}
		</section>
	)
}

function EnrolmentDetails({ enrolment }: { enrolment: Enrolment }) {
	return (
		<div className="enrolment">
			<p>
				Scan this code with your authenticator app (or type the secret below, or open the link on a phone), then enter the code it shows. This page shows the
				secret and the backup codes only now.
			</p>
			<img
				className="totp-qr"
				src={enrolment.qr}
				width={200}
				height={200}
				alt="QR code of the two-factor secret, for an authenticator app"
				data-testid="totp-qr"
			/>
			<p className="secret-field">
				<span>Secret (tap to select, then copy):</span>
				<code data-testid="totp-secret">{enrolment.secret}</code>
			</p>
			<p>
				<a href={enrolment.totpURI} data-testid="totp-uri">
					Open in an authenticator app
				</a>
			</p>
			<p>Backup codes (each works once, if you lose your app; keep them somewhere safe):</p>
			<ul data-testid="backup-codes">
				{enrolment.backupCodes.map((code) => (
					<li key={code}>
						<code>{code}</code>
					</li>
				))}
			</ul>
		</div>
	)
}

/** Turning the factor on or off: both ask for the current password, posted with their intent. */
function PasswordStep({
	intent,
	errors,
	pending,
	children,
}: {
	intent: 'enable-2fa' | 'disable-2fa'
	errors: Props['errors'] | undefined
	pending: boolean
	children: React.ReactNode
}) {
	return (
		<Form method="post" noValidate>
			<FormError message={errors?.formError} />
			<input type="hidden" name="intent" value={intent} />
			<Field name="password" label="Current password" type="password" autoComplete="current-password" required error={errors?.fieldErrors.password} />
			<button type="submit" disabled={pending}>
				{children}
			</button>
		</Form>
	)
}
