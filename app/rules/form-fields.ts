/** A field people never see; a bot that fills it is refused. */
export const HONEYPOT_FIELD = 'website'
