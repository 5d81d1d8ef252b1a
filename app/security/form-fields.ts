/** A field people never see; a bot that fills it is refused (STYLE.md: honeypots). */
export const HONEYPOT_FIELD = 'website'
